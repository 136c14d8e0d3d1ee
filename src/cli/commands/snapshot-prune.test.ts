// `ctx snapshot prune` and `ctx snapshot recompress` in-process: retention from the project's config,
// dry runs, the pinned-over-limit exit code, and the zstd rewrite.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type CliProject, createCliProject, takeSnapshot } from "../../../tests/helpers/cli-project.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { ContextStateSchema } from "../../core/context/extract.ts";
import { readProjectState } from "../../store/context/project-state.ts";
import { createSnapshot, listSnapshots } from "../../store/snapshots/snapshots.ts";
import { PruneReportSchema, RecompressReportSchema, SnapshotListReportSchema } from "../reports.ts";

let project: CliProject;
beforeEach(async () => {
  project = await createCliProject();
});

const DAY_MS = 86_400_000;
const setRetention = (retention: Record<string, number>) =>
  writeFileSync(join(project.root, ".ctx", "config.json"), JSON.stringify({ retention }));

describe("ctx snapshot prune", () => {
  it("--dry-run says what would go and why, and deletes nothing; then prune deletes exactly that", async () => {
    const pinned = await takeSnapshot(project);
    const middle = await takeSnapshot(project);
    const newest = await takeSnapshot(project);
    const old = await takeSnapshot(project, { now: new Date(Date.now() - 40 * DAY_MS) });
    await project.run(["snapshot", "pin", pinned]);
    setRetention({ maxSnapshots: 1 });

    const dry = await project.run(["snapshot", "prune", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`would prune ${middle} \\(.*\\): beyond the newest 1 unpinned snapshots`));
    expect(dry.stdout).toMatch(new RegExp(`would prune ${old} \\(.*\\): older than 30 days`));
    expect(dry.stdout).toMatch(/limits\s+1 snapshots, 30 days, 500\.0 MiB/);
    expect(dry.stdout).toMatch(/snapshots\s+4 \(/);
    expect(await listSnapshots(project.root)).toHaveLength(4);

    const real = PruneReportSchema.parse(JSON.parse((await project.run(["snapshot", "prune", "--json"])).stdout));
    expect(real.dryRun).toBe(false);
    expect(real.pruned.map((p) => [p.id, p.reason])).toEqual([
      [middle, "count"],
      [old, "age"],
    ]);
    expect(real.usage.snapshots).toMatchObject({ count: 2, pinnedCount: 1 });
    expect((await listSnapshots(project.root)).map((s) => s.id)).toEqual([newest, pinned]);
    expect((await project.run(["snapshot", "prune"])).stdout).toContain("nothing to prune");
  });

  it("pinned snapshots alone over the size limit: the unpinned go, and exit 1 with a hint to unpin", async () => {
    const unpinned = await takeSnapshot(project);
    const big = join(project.base, "big.jsonl");
    writeFileSync(big, `${JSON.stringify({ type: "noise", data: randomBytes(1_200_000).toString("base64") })}\n`);
    const state = await readProjectState(project.root);
    if (state === null) throw new Error("no state");
    const { snapshot } = await createSnapshot(
      project.root,
      { sessionId: project.sessionId, trigger: "manual", state, stateSchema: ContextStateSchema, transcriptPath: big },
      { codec: "lz4" },
    );
    await project.run(["snapshot", "pin", snapshot.id]);
    setRetention({ maxTotalMegabytes: 1 });

    const { code, stdout, stderr } = await project.run(["snapshot", "prune"]);
    expect(code).toBe(1);
    expect(stdout).toMatch(new RegExp(`pruned ${unpinned} \\(.*\\): over the 1\\.0 MiB storage limit`));
    expect(stderr).toMatch(/the pinned snapshots alone take [\d.]+ MiB, [\d.]+ KiB over the 1\.0 MiB limit/);
    expect(stderr).toContain("ctx snapshot unpin");
    expect((await listSnapshots(project.root)).map((s) => s.id)).toEqual([snapshot.id]);
  });

  it("an invalid retention setting is a CONFIG_INVALID error naming the file", async () => {
    await project.run(["save"]);
    setRetention({ maxSnapshots: 0 });
    const error = await rejectedCtxError(project.run(["snapshot", "prune"]));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain("config.json");
  });
});

describe("ctx snapshot recompress", () => {
  it("rewrites an LZ4 snapshot as zstd in one line; a second run says it already is", async () => {
    const id = await takeSnapshot(project);
    const first = await project.run(["snapshot", "recompress", id]);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toMatch(new RegExp(`^recompressed ${id}: [\\d.]+ KiB -> [\\d.]+ KiB\\n$`));
    const listed = SnapshotListReportSchema.parse(
      JSON.parse((await project.run(["snapshot", "list", "--json"])).stdout),
    );
    expect(listed.snapshots[0]?.codec).toBe("zstd");
    const again = RecompressReportSchema.parse(
      JSON.parse((await project.run(["snapshot", "recompress", id, "--json"])).stdout),
    );
    expect(again.recompressed).toBe(false);
    expect((await project.run(["snapshot", "recompress", id])).stdout).toBe(
      `${id} is already zstd (${(again.afterBytes / 1024).toFixed(1)} KiB)\n`,
    );
  });

  it("an unknown id (pruned meanwhile, say): NOT_FOUND, so the detached run exits 1", async () => {
    const error = await rejectedCtxError(project.run(["snapshot", "recompress", "20260101T000000000Z-abcdef"]));
    expect(error.code).toBe("NOT_FOUND");
  });
});
