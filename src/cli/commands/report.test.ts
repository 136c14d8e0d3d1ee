// `ctx report` in-process on a temp project: writes the page (0600) where asked and prints its path, refuses a bad
// --weeks or an unknown --session with a hint, and draws the newest session with a transcript by default.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliProject } from "../../../tests/helpers/cli-project.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";

describe("ctx report", () => {
  it("writes the page where asked, private, and prints its path", async () => {
    const project = await createCliProject();
    const out = join(project.base, "out", "report.html");
    const run = await project.run(["report", "--out", out]);
    expect(run.stdout).toBe(`${out}\n`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const html = readFileSync(out, "utf8");
    expect(html).toContain(project.sessionId.slice(0, 8));
    expect(html).toContain("Sessions of the last 4 weeks");
  });

  it("defaults to .ctx/report.html and reports what it drew as JSON", async () => {
    const project = await createCliProject();
    const run = await project.run(["report", "--json"]);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ file: join(project.root, ".ctx", "report.html"), sessions: 1, compactions: 0 });
  });

  it("refuses a bad --weeks and an unknown session, writing nothing", async () => {
    const project = await createCliProject();
    expect((await rejectedCtxError(project.run(["report", "--weeks", "0"]))).code).toBe("USAGE");
    const unknown = await rejectedCtxError(project.run(["report", "--session", "nope"]));
    expect(unknown.message).toBe("no session nope in this project");
    expect(unknown.hint).toContain("ctx status");
    expect(() => statSync(join(project.root, ".ctx", "report.html"))).toThrow();
  });
});
