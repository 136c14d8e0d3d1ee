import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { codecToId, HOT_CODEC, headerCodec } from "../files/codecs.ts";
import { encodeContainer } from "../files/container.ts";
import { listCheckpoints, newestGoodCheckpoint, readCheckpoint, writeCheckpoint } from "./checkpoints.ts";

const StateSchema = z.object({ seq: z.number(), notes: z.array(z.string()) });
type State = z.infer<typeof StateSchema>;

let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-checkpoints-"));
  dir = join(root, ".ctx", "checkpoints");
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const state = (seq: number): State => ({ seq, notes: [`note ${seq}`] });
const write = (seq: number, keep = 10) =>
  writeCheckpoint(
    root,
    { sessionId: "s1", state: state(seq), stateSchema: StateSchema, messageCount: seq * 20 },
    { keep },
  );

describe("writeCheckpoint / readCheckpoint / listCheckpoints", () => {
  it("round-trips the state with its meta, in the hook-path codec (zstd-fast, LZ4 before Node 22.15)", async () => {
    const { meta, pruned } = await write(1);
    expect(pruned).toEqual([]);
    expect(meta).toMatchObject({ sessionId: "s1", messageCount: 20 });
    expect(await readCheckpoint(root, meta.id, StateSchema)).toEqual({ meta, state: state(1) });
    const file = readFileSync(join(dir, `${meta.id}.ctx`));
    expect(file[6]).toBe(codecToId(headerCodec(HOT_CODEC)));
    expect(await listCheckpoints(root)).toEqual([
      { id: meta.id, createdAt: meta.createdAt, fileBytes: file.length, path: join(dir, `${meta.id}.ctx`) },
    ]);
  });

  it("keeps the newest `keep` and lists them newest first", async () => {
    const ids: string[] = [];
    for (let seq = 1; seq <= 5; seq++) ids.push((await write(seq, 3)).meta.id);
    expect((await listCheckpoints(root)).map((entry) => entry.id)).toEqual(ids.slice(2).reverse());
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it("returns null / [] when there is nothing, and for ids that are not checkpoint ids", async () => {
    expect(await listCheckpoints(root)).toEqual([]);
    expect(await readCheckpoint(root, "20261122T000000000Z-000000", StateSchema)).toBeNull();
    expect(await readCheckpoint(root, "../state", StateSchema)).toBeNull();
    expect((await newestGoodCheckpoint(root, StateSchema)).checkpoint).toBeNull();
    expect(existsSync(join(root, ".ctx"))).toBe(false);
  });

  it("refuses a state its schema rejects", async () => {
    const error = await rejectedCtxError(
      writeCheckpoint(root, { sessionId: "s", state: { seq: 1 } as State, stateSchema: StateSchema, messageCount: 0 }),
    );
    expect(error.code).toBe("INTERNAL");
  });

  it("clears temp files that killed writers left behind, once they are old", async () => {
    await write(1);
    const temp = join(dir, ".20261122T000000000Z-000000.ctx.999.0123456789ab.tmp");
    writeFileSync(temp, "partial");
    utimesSync(temp, new Date("2026-01-01"), new Date("2026-01-01"));
    await write(2);
    expect(existsSync(temp)).toBe(false);
  });
});

describe("newestGoodCheckpoint", () => {
  it("skips newer checkpoints that fail to verify and reports them", async () => {
    const good = (await write(1)).meta;
    const truncated = (await write(2)).meta;
    const wrongShape = (await write(3)).meta;
    const truncatedPath = join(dir, `${truncated.id}.ctx`);
    writeFileSync(truncatedPath, readFileSync(truncatedPath).subarray(0, 40));
    writeFileSync(join(dir, `${wrongShape.id}.ctx`), encodeContainer({ meta: wrongShape, state: { seq: "x" } }, "lz4"));

    const result = await newestGoodCheckpoint(root, StateSchema);
    expect(result.checkpoint).toEqual({ meta: good, state: state(1) });
    expect(result.skipped.map((skip) => skip.id)).toEqual([wrongShape.id, truncated.id]);
    expect(result.skipped[0]?.problem).toContain("state field seq");
    expect(result.skipped[1]?.problem).toContain("truncated");
  });
});
