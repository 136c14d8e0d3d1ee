// `ctx snapshot list|show|restore|pin|unpin` in-process, against snapshots written the way the
// pre-compact hook writes them.
import { beforeEach, describe, expect, it } from "vitest";
import { type CliProject, createCliProject, takeSnapshot } from "../../../tests/helpers/cli-project.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { readProjectState } from "../../store/context/project-state.ts";
import { RestoreReportSchema } from "../../store/context/restore.ts";
import { SnapshotListReportSchema, SnapshotPinReportSchema, SnapshotShowReportSchema } from "../reports.ts";

let project: CliProject;
beforeEach(async () => {
  project = await createCliProject();
});

const UNKNOWN_ID = "20260101T000000000Z-abcdef";

describe("ctx snapshot list", () => {
  it("with none: says so, and --json has empty lists", async () => {
    const { stdout } = await project.run(["snapshot", "list"]);
    expect(stdout).toContain("no snapshots yet");
    expect(stdout).toContain("no checkpoints yet");
    expect(
      SnapshotListReportSchema.parse(JSON.parse((await project.run(["snapshot", "list", "--json"])).stdout)),
    ).toEqual({
      snapshots: [],
      checkpoints: [],
    });
  });

  it("lists snapshots newest first, and the checkpoints; --verbose adds session, codec, transcript, counts", async () => {
    const first = await takeSnapshot(project, { name: "first" });
    const second = await takeSnapshot(project);
    await project.run(["checkpoint"]);
    const { stdout } = await project.run(["snapshot", "list"]);
    expect(stdout.indexOf(second)).toBeLessThan(stdout.indexOf(first));
    expect(stdout).toMatch(new RegExp(`${first}\\s+\\S+\\s+auto\\s+[\\d.]+ KiB\\s+-\\s+first`));
    expect(stdout).toContain("checkpoints (1), newest first:");
    const verbose = await project.run(["snapshot", "list", "--verbose"]);
    expect(verbose.stdout).toMatch(/session sess-cli-1; lz4; transcript 6 lines, [\d.]+ KiB; .*todos/);
    const report = SnapshotListReportSchema.parse(
      JSON.parse((await project.run(["snapshot", "list", "--json"])).stdout),
    );
    expect(report.snapshots.map((s) => s.id)).toEqual([second, first]);
    expect(report.checkpoints).toHaveLength(1);
  });
});

describe("ctx snapshot show", () => {
  it("prints the meta and a summary of the state", async () => {
    const id = await takeSnapshot(project);
    const { stdout } = await project.run(["snapshot", "show", id]);
    expect(stdout).toMatch(new RegExp(`snapshot\\s+${id}`));
    expect(stdout).toMatch(/trigger\s+auto/);
    expect(stdout).toContain(`${project.transcript} (6 lines`);
    expect(stdout).toContain("## Todo list (2)");
    const report = SnapshotShowReportSchema.parse(
      JSON.parse((await project.run(["snapshot", "show", id, "--json"])).stdout),
    );
    expect(report.snapshot.id).toBe(id);
    expect(report.text).toContain(`Source: snapshot ${id} (auto,`);
  });

  it("an unknown id: NOT_FOUND naming it and `ctx snapshot list`", async () => {
    for (const id of [UNKNOWN_ID, "not-an-id"]) {
      const error = await rejectedCtxError(project.run(["snapshot", "show", id]));
      expect(error).toMatchObject({ code: "NOT_FOUND", message: `no snapshot ${id} in this project` });
      expect(error.hint).toContain("ctx snapshot list");
    }
  });
});

describe("ctx snapshot restore", () => {
  it("prints the snapshot's context; render flags apply", async () => {
    const id = await takeSnapshot(project);
    const { stdout } = await project.run(["snapshot", "restore", id]);
    expect(stdout).toContain(`Source: snapshot ${id}`);
    expect(stdout).toContain("## Conversation since the last compaction (assembled:");
    expect((await project.run(["snapshot", "restore", id, "--sections", "files"])).stdout).not.toContain(
      "## Conversation",
    );
    const printed = await project.run(["snapshot", "restore", id, "--print"]);
    expect(printed.stdout).toContain("## Conversation");
    expect((await project.run(["snapshot", "restore", id, "--mode", "nope"])).code).toBe(2);
  });

  it("--as-current makes its state the current one, which `ctx restore` then shows", async () => {
    const id = await takeSnapshot(project);
    await project.run(["clear", "--force"]);
    const { stdout, stderr } = await project.run(["snapshot", "restore", id, "--as-current", "--json"]);
    const report = RestoreReportSchema.parse(JSON.parse(stdout));
    expect(report.writtenTo).toMatch(/\.ctx[\\/]state\.ctx$/);
    expect(stderr).toBe("");
    expect((await readProjectState(project.root))?.sessionId).toBe("sess-cli-1");
    expect((await project.run(["restore"])).stdout).toContain("Write the retry helper");
    const text = await project.run(["snapshot", "restore", id, "--as-current"]);
    expect(text.stderr).toContain(`snapshot ${id}'s state is now the current state`);
  });

  it("an unknown id: NOT_FOUND, and --as-current writes nothing", async () => {
    const error = await rejectedCtxError(project.run(["snapshot", "restore", UNKNOWN_ID, "--as-current"]));
    expect(error.message).toContain(UNKNOWN_ID);
    expect(await readProjectState(project.root)).toBeNull();
  });
});

describe("ctx snapshot pin / unpin", () => {
  it("pins and unpins, as the listing shows", async () => {
    const id = await takeSnapshot(project);
    expect((await project.run(["snapshot", "pin", id])).stdout).toBe(`pinned snapshot ${id}\n`);
    expect((await project.run(["snapshot", "list"])).stdout).toMatch(new RegExp(`${id}.*pinned`));
    const unpinned = await project.run(["snapshot", "unpin", id, "--json"]);
    expect(SnapshotPinReportSchema.parse(JSON.parse(unpinned.stdout)).snapshot.pinned).toBe(false);
  });

  it("an unknown id: NOT_FOUND for both", async () => {
    await takeSnapshot(project);
    for (const verb of ["pin", "unpin"]) {
      const error = await rejectedCtxError(project.run(["snapshot", verb, UNKNOWN_ID]));
      expect(error).toMatchObject({ code: "NOT_FOUND", message: `no snapshot ${UNKNOWN_ID} in this project` });
    }
  });
});
