// Damaged state files on disk, read through the public API: every flipped byte and every cut either
// fails with a CtxError naming the file, or (for bytes the decoders never look at) yields the exact
// original value. Never different data, never a half-decoded value.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zstdDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { CtxError } from "../../src/errors.ts";
import { CODECS } from "../../src/store/files/codecs.ts";
import { encodeContainer } from "../../src/store/files/container.ts";
import { readStateFile, verifyStateFile } from "../../src/store/files/state-file.ts";

const NoteSchema = z.object({ title: z.string(), lines: z.array(z.string()), pinned: z.boolean() });
const note = { title: "release plan", lines: ["cut the branch", "tag v1.2.0", "publish"], pinned: true };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-corrupt-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Outcome = "error" | "intact";

async function readDamaged(
  name: string,
  bytes: Uint8Array,
  soundContainer = false,
): Promise<{ outcome: Outcome; error?: CtxError }> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  try {
    const value = await readStateFile(path, NoteSchema);
    expect(value).toEqual(note);
    return { outcome: "intact" };
  } catch (error) {
    expect(error).toBeInstanceOf(CtxError);
    const ctxError = error as CtxError;
    expect(["STATE_CORRUPT", "STATE_UNSUPPORTED_VERSION"]).toContain(ctxError.code);
    expect(ctxError.message).toContain(path);
    // verifyStateFile checks the container only: a sound container whose value fails the schema passes it.
    const verified = await verifyStateFile(path);
    expect(verified).toMatchObject(soundContainer ? { ok: true } : { ok: false, code: ctxError.code });
    return { outcome: "error", error: ctxError };
  }
}

describe.each(CODECS)("a %s file", (codec) => {
  const good = encodeContainer(note, codec);

  it("fails on every cut, naming the file", async () => {
    for (let length = 0; length < good.length; length++) {
      const { outcome, error } = await readDamaged(`cut-${codec}-${length}.ctx`, good.subarray(0, length));
      expect(outcome).toBe("error");
      if (length >= 48) expect(error?.message).toMatch(/truncated: header says \d+ payload bytes, file has \d+/);
    }
  });

  it("fails on every flipped header byte, and never returns other data for a flipped payload byte", async () => {
    let intact = 0;
    for (let offset = 0; offset < good.length; offset++) {
      const bad = good.slice();
      bad[offset] = (bad[offset] ?? 0) ^ 0x04;
      const { outcome } = await readDamaged(`flip-${codec}-${offset}.ctx`, bad);
      if (offset < 48) expect(outcome, `header byte ${offset}`).toBe("error");
      if (outcome === "intact") intact++;
    }
    // Every flip is an error. (fzstd, the decoder on a Node without native zstd, ignores the zstd frame's
    // content-checksum flag: one bit would go unnoticed there, and the container's checksum still holds.)
    expect(intact).toBe(codec === "zstd" && typeof zstdDecompressSync !== "function" ? 1 : 0);
  });

  it("names wrong magic, a future version and a schema mismatch", async () => {
    const magic = await readDamaged(`magic-${codec}.ctx`, new TextEncoder().encode("PK\u0003\u0004 zip, not ctx"));
    expect(magic.error?.message).toMatch(/wrong magic bytes 50 4b 03 04/);
    const future = good.slice();
    future[4] = 2;
    const version = await readDamaged(`future-${codec}.ctx`, future);
    expect(version.error?.code).toBe("STATE_UNSUPPORTED_VERSION");
    expect(version.error?.hint).toMatch(/Upgrade ctx/);
    const mismatch = await readDamaged(`schema-${codec}.ctx`, encodeContainer({ ...note, pinned: "yes" }, codec), true);
    expect(mismatch.error?.message).toMatch(/field pinned: expected boolean, found string$/);
  });
});
