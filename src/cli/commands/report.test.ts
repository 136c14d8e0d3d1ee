// `ctx report` in-process on a temp project: writes the page (0600) where asked and prints its path (the folder
// left as it was, never made), refuses a bad --weeks or an unknown --session with a hint, and draws the newest
// session with a transcript by default.
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliProject } from "../../../tests/helpers/cli-project.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";

describe("ctx report", () => {
  it("writes the page where asked, private, and prints its path", async () => {
    const project = await createCliProject();
    mkdirSync(join(project.base, "out"), { mode: 0o755 });
    const out = join(project.base, "out", "report.html");
    const run = await project.run(["report", "--out", out]);
    expect(run.stdout).toBe(`${out}\n`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(statSync(join(project.base, "out")).mode & 0o777).toBe(0o755);
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

  it("--out refuses a missing folder and a link (without --force) before drawing anything", async () => {
    const project = await createCliProject();
    const missing = await rejectedCtxError(project.run(["report", "--out", join(project.base, "no", "r.html")]));
    expect(missing.code).toBe("NOT_FOUND");
    expect(() => statSync(join(project.base, "no"))).toThrow();
    writeFileSync(join(project.base, "real.html"), "old");
    symlinkSync(join(project.base, "real.html"), join(project.base, "link.html"));
    const link = await rejectedCtxError(project.run(["report", "--out", join(project.base, "link.html")]));
    expect(link).toMatchObject({ code: "UNSAFE_PATH", hint: expect.stringContaining("--force") });
    const forced = await project.run(["report", "--out", join(project.base, "link.html"), "--force"]);
    expect(forced.stdout).toBe(`${join(project.base, "real.html")}\n`);
    expect(readFileSync(join(project.base, "real.html"), "utf8")).toContain("<html");
  });
});
