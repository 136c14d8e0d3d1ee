// The committed golden snapshot and checkpoint pin what `.ctx/snapshots/<id>.ctx` and
// `.ctx/checkpoints/<id>.ctx` hold: this ctx must read them, list them (rebuilding the index from the
// file alone) and write the same bytes for the same value. A failure here is a format change: bump the
// format version with a migration and new golden files (tests/golden/make-snapshot-golden.ts).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { encodeContainer } from "../../src/store/files/container.ts";
import { newestGoodCheckpoint } from "../../src/store/snapshots/checkpoints.ts";
import { listSnapshots, readSnapshot } from "../../src/store/snapshots/snapshots.ts";
import { GOLDEN_CHECKPOINT, GOLDEN_SNAPSHOT, GOLDEN_STATE } from "../golden/snapshot-golden-value.ts";

const golden = join(import.meta.dirname, "..", "golden");
const StateSchema = z.object({
  todos: z.array(z.object({ content: z.string(), status: z.string() })),
  files: z.array(z.string()),
});

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-snapshot-golden-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("golden v1 snapshot", () => {
  it("is listed from the file alone and reads back exactly", async () => {
    const dir = join(root, ".ctx", "snapshots");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${GOLDEN_SNAPSHOT.meta.id}.ctx`);
    copyFileSync(join(golden, "v1-snapshot.ctx"), path);
    const entry = { ...GOLDEN_SNAPSHOT.meta, codec: "lz4", fileBytes: statSync(path).size, pinned: false };
    expect(await listSnapshots(root)).toEqual([entry]);
    const read = await readSnapshot(root, GOLDEN_SNAPSHOT.meta.id, StateSchema);
    expect(read).toEqual({ snapshot: entry, state: GOLDEN_STATE, transcript: GOLDEN_SNAPSHOT.transcript });
  });

  it("is what encoding its value gives, byte for byte", () => {
    expect(
      Buffer.from(encodeContainer(GOLDEN_SNAPSHOT, "lz4")).equals(readFileSync(join(golden, "v1-snapshot.ctx"))),
    ).toBe(true);
  });
});

describe("golden v1 checkpoint", () => {
  it("reads back as the newest good checkpoint", async () => {
    const dir = join(root, ".ctx", "checkpoints");
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(golden, "v1-checkpoint.ctx"), join(dir, `${GOLDEN_CHECKPOINT.meta.id}.ctx`));
    expect(await newestGoodCheckpoint(root, StateSchema)).toEqual({ checkpoint: GOLDEN_CHECKPOINT, skipped: [] });
  });

  it("is what encoding its value gives, byte for byte", () => {
    const bytes = readFileSync(join(golden, "v1-checkpoint.ctx"));
    expect(Buffer.from(encodeContainer(GOLDEN_CHECKPOINT, "lz4")).equals(bytes)).toBe(true);
  });
});
