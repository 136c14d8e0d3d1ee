// `ctx restore` in-process: every source (current, --name, --snapshot, --checkpoint), the render flags,
// and the error paths a person meets (nothing saved, unknown id, bad flags).
import { readFileSync, writeFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { type CliProject, createCliProject } from "../../../tests/helpers/cli-project.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { CheckpointReportSchema } from "../../store/context/operations.ts";
import { RestoreReportSchema } from "../../store/context/restore.ts";

let project: CliProject;
beforeEach(async () => {
  project = await createCliProject();
});

const checkpointNow = async () =>
  CheckpointReportSchema.parse(JSON.parse((await project.run(["checkpoint", "--json"])).stdout));

describe("ctx restore", () => {
  it("with nothing saved: NOT_FOUND saying so, with the command that saves", async () => {
    const error = await rejectedCtxError(project.run(["restore"]));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toBe("nothing saved for this project yet");
    expect(error.hint).toContain("ctx save");
  });

  it("prints the current state as a summary by default: todos, files and the conversation assembled", async () => {
    await project.run(["save"]);
    const { code, stdout } = await project.run(["restore"]);
    expect(code).toBe(0);
    expect(stdout).toContain("saved working context of session sess-cli-1");
    expect(stdout).toContain("[~] Write the retry helper");
    expect(stdout).toContain(project.sourceFile);
    // The conversation part comes from the summaries assembly (extractive here: none stored), after the rest.
    expect(stdout).toMatch(
      /\n## Conversation since the last compaction \(assembled: \d+ recent verbatim, 0 summarised, 0 older folded\)\n/,
    );
    expect(stdout.indexOf("## Conversation")).toBeGreaterThan(stdout.indexOf("[~] Write the retry helper"));
  });

  it("--print gives a person everything, the conversation included", async () => {
    await project.run(["save"]);
    const { stdout } = await project.run(["restore", "--print"]);
    expect(stdout).toContain("## Conversation since the last compaction (assembled:");
    expect(stdout).toContain("We decided to use exponential backoff");
  });

  it("--json reports the origin, mode and cap (the config's maxInjectChars unless given)", async () => {
    await project.run(["save"]);
    const report = RestoreReportSchema.parse(JSON.parse((await project.run(["restore", "--json"])).stdout));
    expect(report).toMatchObject({ mode: "summary", maxChars: 9_500, skippedCheckpoints: [], writtenTo: null });
    expect(report.origin).toContain("the current saved state");
    const printed = RestoreReportSchema.parse(JSON.parse((await project.run(["restore", "--print", "--json"])).stdout));
    expect(printed).toMatchObject({ mode: "full", maxChars: null });
  });

  it("--sections alone means selective and renders only those; --max-chars caps the text", async () => {
    await project.run(["save"]);
    const { stdout } = await project.run(["restore", "--sections", "todos"]);
    expect(stdout).toContain("## Todo list (2)");
    expect(stdout).not.toContain("## Files touched");
    const capped = await project.run(["restore", "--mode", "full", "--max-chars", "300"]);
    expect(capped.stdout.length).toBeLessThanOrEqual(301);
  });

  it("a bad --mode, an unknown section, a silly --max-chars or --print with --mode: usage errors, exit 2", async () => {
    await project.run(["save"]);
    const mode = await project.run(["restore", "--mode", "everything"]);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/Allowed choices are full, summary, selective/);
    expect(mode.stdout).toBe("");
    const section = await project.run(["restore", "--sections", "todos,secrets"]);
    expect(section.code).toBe(2);
    expect(section.stderr).toContain("unknown section secrets");
    expect((await project.run(["restore", "--max-chars", "ten"])).code).toBe(2);
    expect((await project.run(["restore", "--print", "--mode", "summary"])).code).toBe(2);
    expect((await project.run(["restore", "--name", "a", "--snapshot", "b"])).code).toBe(2);
    const mixed = await rejectedCtxError(project.run(["restore", "--mode", "full", "--sections", "todos"]));
    expect(mixed.code).toBe("USAGE");
  });

  it("--name restores a named save; an unknown name is NOT_FOUND naming it", async () => {
    await project.run(["save", "--name", "v1"]);
    expect((await project.run(["restore", "--name", "v1"])).stdout).toContain('Source: the save "v1"');
    const error = await rejectedCtxError(project.run(["restore", "--name", "v2"]));
    expect(error).toMatchObject({ code: "NOT_FOUND", message: 'no save named "v2" in this project' });
  });

  it("an unknown --snapshot or --checkpoint id: NOT_FOUND naming the id and `ctx snapshot list`", async () => {
    for (const flag of ["--snapshot", "--checkpoint"]) {
      const id = "20260101T000000000Z-abcdef";
      const error = await rejectedCtxError(project.run(["restore", flag, id]));
      expect(error.code).toBe("NOT_FOUND");
      expect(error.message).toContain(id);
      expect(error.hint).toContain("ctx snapshot list");
    }
    const odd = await rejectedCtxError(project.run(["restore", "--snapshot", "../../etc/passwd"]));
    expect(odd.message).toContain("../../etc/passwd");
  });

  it("--checkpoint <id> restores that checkpoint", async () => {
    const { id } = await checkpointNow();
    const { stdout } = await project.run(["restore", "--checkpoint", id]);
    expect(stdout).toContain(`Source: checkpoint ${id}.`);
    expect(stdout).toContain("Write the retry helper");
  });

  it("--checkpoint alone takes the newest that verifies and says which damaged ones it skipped", async () => {
    const older = await checkpointNow();
    const newer = await checkpointNow();
    writeFileSync(newer.path, Buffer.from("not a container at all"));
    const { code, stdout, stderr } = await project.run(["restore", "--checkpoint"]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Source: checkpoint ${older.id} (the newest that verifies)`);
    expect(stderr).toContain(`skipped damaged checkpoint ${newer.id}`);
    const report = RestoreReportSchema.parse(
      JSON.parse((await project.run(["restore", "--checkpoint", "--json"])).stdout),
    );
    expect(report.skippedCheckpoints.map((s) => s.id)).toEqual([newer.id]);
  });

  it("--checkpoint alone with none that verifies: NOT_FOUND counting the damaged ones", async () => {
    const none = await rejectedCtxError(project.run(["restore", "--checkpoint"]));
    expect(none.message).toBe("no checkpoint that verifies in this project");
    const only = await checkpointNow();
    writeFileSync(only.path, readFileSync(only.path).subarray(0, 20));
    const damaged = await rejectedCtxError(project.run(["restore", "--checkpoint"]));
    expect(damaged.code).toBe("NOT_FOUND");
    expect(damaged.message).toContain(`1 damaged: ${only.id}`);
  });

  it("--project restores another folder's state", async () => {
    await project.run(["save"]);
    const other = await createCliProject();
    const { stdout } = await other.run(["restore", "--project", project.root]);
    expect(stdout).toContain(`(project ${project.root})`);
    await expect(other.run(["restore"])).rejects.toThrow("nothing saved");
  });
});
