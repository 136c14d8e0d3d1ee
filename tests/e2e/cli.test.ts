// The person's side of the binary: version, help, unknown commands and bad flags.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { runCtx } from "./ctx-process.ts";

const cwd = mkdtempSync(join(tmpdir(), "ctx-cli-e2e-"));
const env = { CTX_HOME: join(cwd, "ctx-home"), HOME: cwd };

describe("ctx CLI", () => {
  it("--version prints the package version", async () => {
    const result = await runCtx(["--version"], { cwd, env });
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    // The word people type, as a command of its own (#24).
    expect(await runCtx(["version"], { cwd, env })).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it("--help lists the commands", async () => {
    const result = await runCtx(["--help"], { cwd, env });
    expect(result.code).toBe(0);
    for (const command of ["serve", "hook", "init", "status", "doctor"]) expect(result.stdout).toContain(command);
  });

  it("an unknown command: one error line plus a hint on stderr, non-zero exit, empty stdout", async () => {
    const result = await runCtx(["stauts"], { cwd, env });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/unknown command 'stauts'/);
    expect(result.stderr).toMatch(/status/); // the suggestion
    expect(result.stderr).toMatch(/ctx --help/);
  });

  it("a bad flag: error plus hint, non-zero exit", async () => {
    const result = await runCtx(["status", "--jsno"], { cwd, env });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/unknown option '--jsno'/);
    expect(result.stderr).toMatch(/--help/);
  });

  it("status --project with a folder that does not exist: a clear error, exit 1", async () => {
    const result = await runCtx(["status", "--project", "nope/not/here"], { cwd, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/ctx: project folder .*nope\/not\/here does not exist/);
    expect(result.stderr).toMatch(/hint: /);
  });

  it("status --json in a folder ctx has never seen reports it as not set up", async () => {
    const result = await runCtx(["status", "--json"], { cwd, env });
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout);
    expect(status).toMatchObject({ project: { root: cwd, initialized: false }, sessions: { count: 0, recent: [] } });
  });
});
