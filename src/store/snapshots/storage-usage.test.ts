import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { writeCheckpoint } from "./checkpoints.ts";
import { createSnapshot, pinSnapshot } from "./snapshots.ts";
import { storageUsage } from "./storage-usage.ts";

const StateSchema = z.object({ n: z.number() });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-usage-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("storageUsage", () => {
  it("is all zeros for a project without a .ctx folder", async () => {
    expect(await storageUsage(root)).toEqual({
      snapshots: { count: 0, bytes: 0, pinnedCount: 0, pinnedBytes: 0 },
      checkpoints: { count: 0, bytes: 0 },
      leftovers: { tempFiles: 0, damagedFiles: 0, bytes: 0 },
      totalBytes: 0,
    });
  });

  it("counts snapshots, pinned ones, checkpoints and leftovers from the folders", async () => {
    const make = (n: number) =>
      createSnapshot(
        root,
        { sessionId: "s", trigger: "save", state: { n }, stateSchema: StateSchema },
        { codec: "lz4" },
      );
    const a = (await make(1)).snapshot;
    const b = (await make(2)).snapshot;
    await pinSnapshot(root, a.id);
    const checkpoint = await writeCheckpoint(root, {
      sessionId: "s",
      state: { n: 3 },
      stateSchema: StateSchema,
      messageCount: 1,
    });
    const snapshots = join(root, ".ctx", "snapshots");
    writeFileSync(join(snapshots, `.${b.id}.ctx.4242.0123456789ab.tmp`), "12345");
    writeFileSync(join(snapshots, "20261122T000000000Z-abcdef.ctx.damaged"), "123");
    const checkpointBytes = statSync(join(root, ".ctx", "checkpoints", `${checkpoint.meta.id}.ctx`)).size;

    const usage = await storageUsage(root);
    expect(usage.snapshots).toEqual({
      count: 2,
      bytes: a.fileBytes + b.fileBytes,
      pinnedCount: 1,
      pinnedBytes: a.fileBytes,
    });
    expect(usage.checkpoints).toEqual({ count: 1, bytes: checkpointBytes });
    expect(usage.leftovers).toEqual({ tempFiles: 1, damagedFiles: 1, bytes: 8 });
    const indexBytes = statSync(join(snapshots, "index.json")).size;
    expect(usage.totalBytes).toBe(a.fileBytes + b.fileBytes + checkpointBytes + 8 + indexBytes);
  });
});
