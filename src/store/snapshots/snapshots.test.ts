import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import type { RetentionPolicy } from "../../core/snapshots/retention.ts";
import {
  type CreateSnapshotOptions,
  createSnapshot,
  listSnapshots,
  pinSnapshot,
  pruneSnapshots,
  readSnapshot,
  unpinSnapshot,
} from "./snapshots.ts";

const StateSchema = z.object({
  seq: z.number(),
  todos: z.array(z.object({ text: z.string(), done: z.boolean() })),
  files: z.object({ read: z.array(z.string()), written: z.array(z.string()) }),
});
type State = z.infer<typeof StateSchema>;
const MiB = 1024 * 1024;
const roomy: RetentionPolicy = { maxSnapshots: 100, maxAgeDays: 30, maxTotalBytes: 500 * MiB };

let root: string;
let snapshotsDir: string;
let transcriptPath: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-snapshots-"));
  snapshotsDir = join(root, ".ctx", "snapshots");
  transcriptPath = join(root, "session.jsonl");
  writeFileSync(transcriptPath, '{"type":"user","n":1}\n{"type":"assistant","n":2}\n{"type":"user","n":3');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const state = (seq: number): State => ({
  seq,
  todos: [
    { text: "write the store", done: true },
    { text: `test it ${seq}`, done: false },
  ],
  files: { read: ["src/a.ts"], written: ["src/b.ts", "src/c.ts"] },
});

function create(seq: number, options: Partial<CreateSnapshotOptions> = {}, name?: string) {
  return createSnapshot(
    root,
    {
      sessionId: "session-1",
      trigger: "auto",
      state: state(seq),
      stateSchema: StateSchema,
      transcriptPath,
      ...(name === undefined ? {} : { name }),
    },
    { codec: "lz4", retention: roomy, ...options },
  );
}

const snapshotFiles = () => readdirSync(snapshotsDir).filter((name) => name.endsWith(".ctx"));

describe("createSnapshot / readSnapshot", () => {
  it("writes one verified container with meta, state and transcript, and catalogs it", async () => {
    const { snapshot, pruned } = await create(1, {}, "before refactor");
    expect(pruned).toEqual([]);
    expect(snapshot).toMatchObject({
      sessionId: "session-1",
      trigger: "auto",
      name: "before refactor",
      codec: "lz4",
      pinned: false,
      transcript: { path: transcriptPath, bytes: statSync(transcriptPath).size, lines: 3 },
      stateSummary: { todos: 2, "files.read": 1, "files.written": 2 },
    });
    const path = join(snapshotsDir, `${snapshot.id}.ctx`);
    expect(snapshot.fileBytes).toBe(statSync(path).size);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(snapshotsDir).mode & 0o777).toBe(0o700);

    const read = await readSnapshot(root, snapshot.id, StateSchema);
    expect(read?.state).toEqual(state(1));
    expect(Buffer.from(read?.transcript ?? []).equals(readFileSync(transcriptPath))).toBe(true);
    expect(read?.snapshot).toEqual(snapshot);
    expect(await listSnapshots(root)).toEqual([snapshot]);
    expect(JSON.parse(readFileSync(join(snapshotsDir, "index.json"), "utf8")).snapshots).toEqual([snapshot]);
  });

  it("keeps the state alone when there is no transcript", async () => {
    const { snapshot } = await createSnapshot(
      root,
      { sessionId: "s", trigger: "save", state: state(2), stateSchema: StateSchema },
      { codec: "zstd" },
    );
    expect(snapshot).toMatchObject({ transcript: null, codec: "zstd" });
    expect((await readSnapshot(root, snapshot.id, StateSchema))?.transcript).toEqual(new Uint8Array(0));
  });

  it("refuses a state its schema rejects (a bug in ctx), writing nothing", async () => {
    const error = await rejectedCtxError(
      createSnapshot(
        root,
        { sessionId: "s", trigger: "manual", state: { seq: "one" } as unknown as State, stateSchema: StateSchema },
        { codec: "lz4" },
      ),
    );
    expect(error.code).toBe("INTERNAL");
    expect(error.message).toContain("field seq");
    expect(existsSync(snapshotsDir)).toBe(false);
  });

  it("says NOT_FOUND for a transcript that does not exist", async () => {
    rmSync(transcriptPath);
    expect((await rejectedCtxError(create(1))).code).toBe("NOT_FOUND");
  });

  it("throws STATE_CORRUPT and keeps nothing when the written file does not verify", async () => {
    const { snapshot: earlier } = await create(1);
    // A schema whose output it does not accept as input: the read-back check must catch it.
    const NotIdempotent = z.pipe(
      z.string(),
      z.transform((text: string) => text.length),
    );
    const error = await rejectedCtxError(
      createSnapshot(
        root,
        { sessionId: "s", trigger: "auto", state: "abc" as unknown as number, stateSchema: NotIdempotent },
        { codec: "lz4" },
      ),
    );
    expect(error.code).toBe("STATE_CORRUPT");
    expect(error.message).toMatch(/did not verify after writing: state/);
    expect(await listSnapshots(root)).toEqual([earlier]);
    expect(snapshotFiles()).toEqual([`${earlier.id}.ctx`]);
  });

  it("gives time-ordered ids that never collide, even for the same instant", async () => {
    const now = new Date("2026-11-22T03:11:00.000Z");
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create(i, { now })).snapshot.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toMatch(/^20261122T031100000Z-[0-9a-f]{6}$/);
  });

  it("returns null for unknown and malformed ids, STATE_CORRUPT for a damaged file", async () => {
    const { snapshot } = await create(1);
    expect(await readSnapshot(root, "20261122T031100000Z-000000", StateSchema)).toBeNull();
    expect(await readSnapshot(root, "../../etc/passwd", StateSchema)).toBeNull();
    const path = join(snapshotsDir, `${snapshot.id}.ctx`);
    writeFileSync(path, readFileSync(path).subarray(0, 100));
    expect((await rejectedCtxError(readSnapshot(root, snapshot.id, StateSchema))).code).toBe("STATE_CORRUPT");
  });

  it("says STATE_CORRUPT when the state does not match the reader's schema", async () => {
    const { snapshot } = await create(1);
    const Other = z.object({ seq: z.string() });
    const error = await rejectedCtxError(readSnapshot(root, snapshot.id, Other));
    expect(error.code).toBe("STATE_CORRUPT");
    expect(error.message).toContain("state field seq");
  });

  it("keeps a consistent catalog under concurrent creates in one process", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => create(i)));
    const listed = await listSnapshots(root);
    expect(listed.map((s) => s.id).sort()).toEqual(results.map((r) => r.snapshot.id).sort());
    expect(snapshotFiles()).toHaveLength(6);
  });
});

describe("retention on create", () => {
  it("prunes beyond maxSnapshots after writing, and never the pinned", async () => {
    const first = (await create(1)).snapshot;
    await pinSnapshot(root, first.id);
    const second = (await create(2)).snapshot;
    await create(3, { retention: { ...roomy, maxSnapshots: 2 } });
    const result = await create(4, { retention: { ...roomy, maxSnapshots: 2 } });
    expect(result.pruned).toEqual([{ id: second.id, reason: "count", fileBytes: second.fileBytes }]);
    const listed = await listSnapshots(root);
    expect(listed.map((s) => s.id)).toContain(first.id);
    expect(listed).toHaveLength(3);
    expect(snapshotFiles()).toHaveLength(3);
  });

  it("refuses with STORAGE_LIMIT, before writing, when pinned snapshots leave no room", async () => {
    const pinned = (await create(1)).snapshot;
    await pinSnapshot(root, pinned.id);
    await create(2);
    const tight = { ...roomy, maxTotalBytes: Math.floor(pinned.fileBytes * 1.5) };
    const error = await rejectedCtxError(create(3, { retention: tight }));
    expect(error.code).toBe("STORAGE_LIMIT");
    expect(error.message).toMatch(/1 pinned snapshot\(s\) already take .* of the .* limit/);
    expect(error.hint).toContain("ctx snapshot unpin");
    expect(error.hint).toContain("retention.maxTotalMegabytes");
    expect(await listSnapshots(root)).toHaveLength(2);
    expect(snapshotFiles()).toHaveLength(2);
  });

  it("prunes older unpinned snapshots when that makes room", async () => {
    const a = (await create(1)).snapshot;
    const b = (await create(2)).snapshot;
    const result = await create(3, { retention: { ...roomy, maxTotalBytes: Math.floor(a.fileBytes * 2.5) } });
    expect(result.pruned.map((p) => [p.id, p.reason])).toEqual([[a.id, "size"]]);
    expect((await listSnapshots(root)).map((s) => s.id)).toEqual([result.snapshot.id, b.id]);
  });
});

describe("index.json: a cache rebuilt from the files", () => {
  it("is rebuilt when missing or unreadable", async () => {
    const made = [(await create(1)).snapshot, (await create(2)).snapshot].reverse();
    await pinSnapshot(root, made[1]?.id ?? "");
    const expected = await listSnapshots(root);
    for (const damage of [() => rmSync(join(snapshotsDir, "index.json")), () => corruptIndex("{not json")]) {
      damage();
      expect(await listSnapshots(root)).toEqual(expected);
      expect(JSON.parse(readFileSync(join(snapshotsDir, "index.json"), "utf8")).snapshots).toEqual(expected);
    }
    corruptIndex(JSON.stringify({ version: 1, snapshots: [{ id: "x" }] }));
    expect(await listSnapshots(root)).toEqual(expected);
    expect(expected.map((s) => s.pinned)).toEqual([false, true]);
  });

  it("drops entries whose file is gone and picks up files it does not list", async () => {
    const a = (await create(1)).snapshot;
    const indexText = readFileSync(join(snapshotsDir, "index.json"), "utf8");
    const b = (await create(2)).snapshot;
    corruptIndex(indexText); // as if killed between writing b and updating the catalog
    expect((await listSnapshots(root)).map((s) => s.id)).toEqual([b.id, a.id]);
    rmSync(join(snapshotsDir, `${a.id}.ctx`));
    expect((await listSnapshots(root)).map((s) => s.id)).toEqual([b.id]);
  });

  it("sets aside a snapshot file that does not decode instead of listing it", async () => {
    const good = (await create(1)).snapshot;
    const badId = "20261122T031100000Z-abcdef";
    writeFileSync(
      join(snapshotsDir, `${badId}.ctx`),
      readFileSync(join(snapshotsDir, `${good.id}.ctx`)).subarray(0, 60),
    );
    expect((await listSnapshots(root)).map((s) => s.id)).toEqual([good.id]);
    expect(readdirSync(snapshotsDir)).toContain(`${badId}.ctx.damaged`);
    expect(snapshotFiles()).toEqual([`${good.id}.ctx`]);
  });

  it("returns [] and creates nothing for a project without snapshots", async () => {
    expect(await listSnapshots(root)).toEqual([]);
    expect(existsSync(join(root, ".ctx"))).toBe(false);
  });
});

describe("pin, unpin, prune", () => {
  it("pins with a marker file and unpins by removing it", async () => {
    const { snapshot } = await create(1);
    expect(await pinSnapshot(root, snapshot.id)).toEqual({ ...snapshot, pinned: true });
    expect(existsSync(join(snapshotsDir, `${snapshot.id}.pin`))).toBe(true);
    expect((await listSnapshots(root))[0]?.pinned).toBe(true);
    expect(await unpinSnapshot(root, snapshot.id)).toEqual({ ...snapshot, pinned: false });
    expect(await unpinSnapshot(root, snapshot.id)).toEqual({ ...snapshot, pinned: false });
    expect(existsSync(join(snapshotsDir, `${snapshot.id}.pin`))).toBe(false);
    expect(await pinSnapshot(root, "20261122T031100000Z-000000")).toBeNull();
  });

  it("returns null when the project has no snapshots", async () => {
    expect(await pinSnapshot(root, "20261122T031100000Z-000000")).toBeNull();
  });

  it("prunes by age and removes orphaned temp files", async () => {
    const keepAll = { retention: { ...roomy, maxAgeDays: 100_000 } };
    const old = (await create(1, { ...keepAll, now: new Date("2020-01-01T00:00:00Z") })).snapshot;
    const young = (await create(2, keepAll)).snapshot;
    const temp = join(snapshotsDir, `.${young.id}.ctx.12345.0123456789ab.tmp`);
    writeFileSync(temp, "half a snapshot");
    utimesSync(temp, new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));
    const result = await pruneSnapshots(root, roomy, new Date());
    expect(result.pruned).toEqual([{ id: old.id, reason: "age", fileBytes: old.fileBytes }]);
    expect(result.removedTempFiles).toEqual([`.${young.id}.ctx.12345.0123456789ab.tmp`]);
    expect((await listSnapshots(root)).map((s) => s.id)).toEqual([young.id]);
    expect(readdirSync(snapshotsDir).sort()).toEqual([`${young.id}.ctx`, "index.json"]);
  });

  it("reports pinned snapshots that alone exceed the size limit", async () => {
    const { snapshot } = await create(1);
    await pinSnapshot(root, snapshot.id);
    const result = await pruneSnapshots(root, { ...roomy, maxTotalBytes: 10 }, new Date());
    expect(result.overLimitPinnedBytes).toBe(snapshot.fileBytes - 10);
    expect(result.pruned).toEqual([]);
  });

  it("does nothing for a project without a snapshot folder", async () => {
    expect((await pruneSnapshots(root, roomy, new Date())).pruned).toEqual([]);
    expect(existsSync(join(root, ".ctx"))).toBe(false);
  });
});

function corruptIndex(text: string): void {
  writeFileSync(join(snapshotsDir, "index.json"), text);
}

describe("break 2: a transcript over V8's string limit fails the snapshot (and blocks every compaction)", () => {
  const snapshotWith = (input: { maxTranscriptBytes?: number; transformTranscript?: (text: string) => string }) =>
    createSnapshot(
      root,
      { sessionId: "session-1", trigger: "auto", state: state(1), stateSchema: StateSchema, transcriptPath, ...input },
      { codec: "lz4", retention: roomy },
    );

  it("past the size cap, the snapshot keeps the state alone and says what it left out", async () => {
    const size = statSync(transcriptPath).size;
    const { snapshot } = await snapshotWith({ maxTranscriptBytes: size - 1 });
    expect(snapshot.transcript).toBeNull();
    expect(snapshot.transcriptOmitted).toEqual({ path: transcriptPath, bytes: size });
    const read = await readSnapshot(root, snapshot.id, StateSchema);
    expect(read?.state).toEqual(state(1));
    expect(read?.transcript.length).toBe(0);
  });

  it("the transform runs block by block on whole lines, and the blocks join to the whole", async () => {
    // 12 MiB of lines: three 4 MiB blocks, each line carrying a marker the transform must see whole.
    const line = `{"type":"user","text":"token SECRET-${"x".repeat(100)}"}\n`;
    const lines = Math.ceil((12 * MiB) / line.length);
    writeFileSync(transcriptPath, line.repeat(lines));
    const blocks: number[] = [];
    const { snapshot } = await snapshotWith({
      transformTranscript: (text) => {
        blocks.push(text.length);
        expect(text.endsWith("\n")).toBe(true); // whole lines only
        return text.replaceAll("SECRET-", "[redacted]-");
      },
    });
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...blocks)).toBeLessThanOrEqual(4 * MiB + line.length);
    const read = await readSnapshot(root, snapshot.id, StateSchema);
    const text = Buffer.from(read?.transcript ?? new Uint8Array()).toString("utf8");
    expect(text).toBe(line.replaceAll("SECRET-", "[redacted]-").repeat(lines));
    expect(snapshot.transcript?.lines).toBe(lines);
  });
});

describe("a snapshot of a grown transcript transforms only what was added (pre-compact budget)", () => {
  const upper = (seen: string[]) => (text: string) => {
    seen.push(text);
    return text.toUpperCase();
  };
  const snap = (transform: (text: string) => string, transformKey = "k1") =>
    createSnapshot(
      root,
      {
        sessionId: "session-1",
        trigger: "auto",
        state: state(1),
        stateSchema: StateSchema,
        transcriptPath,
        transformTranscript: transform,
        transformKey,
      },
      { codec: "lz4", retention: roomy },
    );
  const stored = async (id: string) =>
    Buffer.from((await readSnapshot(root, id, StateSchema))?.transcript ?? new Uint8Array()).toString("utf8");

  it("reuses the previous snapshot's bytes and transforms only the new lines; the result is the whole transform", async () => {
    writeFileSync(transcriptPath, '{"n":1}\n{"n":2}\n');
    const first: string[] = [];
    await snap(upper(first));
    expect(first.join("")).toBe('{"n":1}\n{"n":2}\n');
    writeFileSync(transcriptPath, '{"n":1}\n{"n":2}\n{"n":3}\n');
    const second: string[] = [];
    const { snapshot } = await snap(upper(second));
    expect(second.join("")).toBe('{"n":3}\n');
    expect(await stored(snapshot.id)).toBe('{"N":1}\n{"N":2}\n{"N":3}\n');
  });

  it("transforms everything again when the transcript was rewritten, or the transform changed", async () => {
    writeFileSync(transcriptPath, '{"n":1}\n{"n":2}\n');
    await snap(upper([]));
    writeFileSync(transcriptPath, '{"x":1}\n{"n":2}\n{"n":3}\n'); // same length prefix, other bytes
    const rewritten: string[] = [];
    const { snapshot } = await snap(upper(rewritten));
    expect(rewritten.join("")).toBe('{"x":1}\n{"n":2}\n{"n":3}\n');
    expect(await stored(snapshot.id)).toBe('{"X":1}\n{"N":2}\n{"N":3}\n');
    const otherKey: string[] = [];
    await snap(upper(otherKey), "k2");
    expect(otherKey.join("")).toBe('{"x":1}\n{"n":2}\n{"n":3}\n');
  });

  it("a previous read that ended mid-line is not reused", async () => {
    writeFileSync(transcriptPath, '{"n":1}\n{"n":');
    await snap(upper([]));
    writeFileSync(transcriptPath, '{"n":1}\n{"n":2}\n');
    const again: string[] = [];
    await snap(upper(again));
    expect(again.join("")).toBe('{"n":1}\n{"n":2}\n');
  });
});
