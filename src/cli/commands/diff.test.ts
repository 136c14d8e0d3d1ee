// `ctx diff` in-process: the saved context's files against the disk, and the nothing-saved error.
import { unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type CliProject, createCliProject } from "../../../tests/helpers/cli-project.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { DiffReportSchema } from "../../store/context/diff.ts";

let project: CliProject;
beforeEach(async () => {
  project = await createCliProject();
});

/** A file written after the save; its mtime is set ahead so "after" never depends on timer resolution. */
function addFileAfterSave(name: string): string {
  const path = join(project.root, "src", name);
  writeFileSync(path, "export {};\n");
  const later = new Date(Date.now() + 60_000);
  utimesSync(path, later, later);
  return path;
}

describe("ctx diff", () => {
  it("nothing changed: says so", async () => {
    await project.run(["save"]);
    const { code, stdout } = await project.run(["diff"]);
    expect(code).toBe(0);
    expect(stdout).toContain("compared with the current saved state");
    expect(stdout).toContain("no tracked file changed");
    expect(stdout).toContain("unchanged: 1;");
  });

  it("lists modified and added files relative to the project, and the --json report has them absolute", async () => {
    await project.run(["save"]);
    writeFileSync(project.sourceFile, "export const retries = 5;\n");
    const added = addFileAfterSave("backoff.ts");
    const { stdout } = await project.run(["diff"]);
    expect(stdout).toMatch(/modified\s+src\/retry\.ts/);
    expect(stdout).toMatch(/added\s+src\/backoff\.ts/);
    const report = DiffReportSchema.parse(JSON.parse((await project.run(["diff", "--json"])).stdout));
    expect(report).toMatchObject({ found: true, modified: [project.sourceFile], added: [added], deleted: [] });
  });

  it("a deleted file shows as deleted; --name compares a named save", async () => {
    await project.run(["save", "--name", "v1"]);
    unlinkSync(project.sourceFile);
    const { stdout } = await project.run(["diff", "--name", "v1"]);
    expect(stdout).toContain('compared with the save "v1"');
    expect(stdout).toMatch(/deleted\s+src\/retry\.ts/);
  });

  it("nothing saved, or no such save: NOT_FOUND with the command that saves", async () => {
    const nothing = await rejectedCtxError(project.run(["diff"]));
    expect(nothing).toMatchObject({ code: "NOT_FOUND", message: "nothing saved for this project yet" });
    const named = await rejectedCtxError(project.run(["diff", "--name", "v9"]));
    expect(named.message).toContain('"v9"');
    expect(named.hint).toContain("ctx save --name v9");
  });
});
