// `ctx save`, `ctx checkpoint` and `ctx clear` in-process against a temp project with a real transcript.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type CliProject, createCliProject } from "../../../tests/helpers/cli-project.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { CheckpointReportSchema, ClearReportSchema, SaveReportSchema } from "../../store/context/operations.ts";
import { readProjectState } from "../../store/context/project-state.ts";

let project: CliProject;
beforeEach(async () => {
  project = await createCliProject();
});

describe("ctx save", () => {
  it("captures the newest session and says what it saved, where, and how many secrets it redacted", async () => {
    const { code, stdout } = await project.run(["save"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/saved\s+session sess-cli-1/);
    expect(stdout).toContain(join(project.root, ".ctx", "state.ctx"));
    expect(stdout).toMatch(/2 todos/);
    expect(stdout).toMatch(/redacted\s+0 secrets/);
    const state = await readProjectState(project.root);
    expect(state?.todos?.items.map((t) => t.content)).toEqual(["Write the retry helper", "Wire it into the client"]);
  });

  it("--name --json also keeps a named save and reports it as SaveReport", async () => {
    const { stdout } = await project.run(["save", "--name", "before-refactor", "--json"]);
    const report = SaveReportSchema.parse(JSON.parse(stdout));
    expect(report).toMatchObject({
      sessionId: "sess-cli-1",
      name: "before-refactor",
      path: join(project.root, ".ctx", "saves", "before-refactor.ctx"),
      counts: { todos: 2, files: 1 },
      movedAside: null,
    });
    expect(await readProjectState(project.root, "before-refactor")).not.toBeNull();
    expect(await readProjectState(project.root)).not.toBeNull();
  });

  it("an invalid save name is a usage error", async () => {
    const error = await rejectedCtxError(project.run(["save", "--name", "../escape"]));
    expect(error.code).toBe("USAGE");
  });

  it("--session naming a session ctx never saw: NOT_FOUND naming it", async () => {
    const error = await rejectedCtxError(project.run(["save", "--session", "nope"]));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toContain("nope");
  });

  it("a project without any session recorded: NOT_FOUND with how sessions get recorded", async () => {
    const empty = join(project.base, "empty");
    mkdirSync(empty);
    const error = await rejectedCtxError(project.run(["save", "--project", empty]));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.hint).toContain("ctx init");
  });
});

describe("ctx checkpoint", () => {
  it("writes one and names the command that restores it", async () => {
    const { stdout } = await project.run(["checkpoint", "--json"]);
    const report = CheckpointReportSchema.parse(JSON.parse(stdout));
    expect(existsSync(report.path)).toBe(true);
    expect(report.sessionId).toBe("sess-cli-1");
    const text = await project.run(["checkpoint"]);
    expect(text.stdout).toMatch(/restore with\s+ctx restore --checkpoint \d{8}T/);
  });
});

describe("ctx clear", () => {
  it("refuses without --force (USAGE, exit 2 at the edge) and deletes nothing", async () => {
    await project.run(["save"]);
    const error = await rejectedCtxError(project.run(["clear"]));
    expect(error.code).toBe("USAGE");
    expect(error.hint).toContain("--force");
    expect(await readProjectState(project.root)).not.toBeNull();
  });

  it("--force deletes the current state and keeps the named saves; a second time there is nothing to clear", async () => {
    await project.run(["save", "--name", "keep-me"]);
    const { stdout } = await project.run(["clear", "--force"]);
    expect(stdout).toMatch(/^cleared .*state\.ctx/);
    expect(await readProjectState(project.root)).toBeNull();
    expect(await readProjectState(project.root, "keep-me")).not.toBeNull();
    const again = await project.run(["clear", "--force", "--json"]);
    expect(ClearReportSchema.parse(JSON.parse(again.stdout)).cleared).toBe(false);
  });
});
