// `ctx doctor` run in-process through runCli against a temp repository and a temp HOME.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { DoctorReportSchema } from "../../core/setup/doctor-report.ts";

let root: string;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-doctor-cli-"));
  repo = join(root, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(root, "bin"));
  mkdirSync(join(root, "home"));
  // A `ctx` on PATH so the wiring's command resolves (another program: doctor says so).
  writeFileSync(join(root, "bin", "ctx"), "#!/bin/sh\n");
  chmodSync(join(root, "bin", "ctx"), 0o755);
  env = { PATH: join(root, "bin"), HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function run(argv: string[]) {
  return runCliCaptured(argv, { cwd: repo, env });
}

async function doctorJson() {
  const { code, stdout } = await run(["doctor", "--json"]);
  const report = DoctorReportSchema.parse(JSON.parse(stdout));
  return { code, report, byId: Object.fromEntries(report.findings.map((finding) => [finding.id, finding])) };
}

describe("ctx doctor", () => {
  it("passes after ctx init (exit 0), with only warnings about PATH", async () => {
    await run(["init", "--command", "ctx"]);
    const { code, report, byId } = await doctorJson();
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(byId.node?.message).toContain(process.versions.node);
    expect(byId["path-ctx"]).toMatchObject({ status: "warn", message: expect.stringContaining("another program") });
    for (const id of ["project-mcp", "project-hooks", "gitignore", "ctx-dir", "config", "session-index"]) {
      expect(byId[id]?.status, id).toBe("ok");
    }
  });

  it("warns about Node's compile-cache folder when others can read it, with the chmod that fixes it", async () => {
    await run(["init", "--command", "ctx"]);
    // As Node made it under the usual umask before ctx turned the cache on under 077.
    const versionFolder = join(root, "ctx-home", "cache", "node-compile", "v24.0.0-x64-0-0");
    mkdirSync(versionFolder, { recursive: true, mode: 0o700 });
    chmodSync(versionFolder, 0o755);
    const { byId } = await doctorJson();
    expect(byId["private-modes"]).toMatchObject({
      status: "warn",
      message: expect.stringContaining(`${versionFolder} is 0755`),
      fix: `chmod 700 ${versionFolder}`,
    });
    expect(byId["private-modes"]?.message).not.toContain("conversations");
    chmodSync(versionFolder, 0o700);
    expect((await doctorJson()).byId["private-modes"]?.status).toBe("ok");
    // A link in there to a folder elsewhere is not ctx's folder: not followed, not named.
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o755 });
    chmodSync(elsewhere, 0o755);
    symlinkSync(elsewhere, join(root, "ctx-home", "cache", "node-compile", "v25.0.0-x64-0-0"));
    expect((await doctorJson()).byId["private-modes"]?.status).toBe("ok");
  });

  it("fails (exit 1) in a project ctx init never touched, with the fixes", async () => {
    const { code, stdout } = await run(["doctor"]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/✗ \.mcp\.json has no "ctx" MCP server\n {4}fix: ctx init/);
    expect(stdout).toMatch(/^! /m);
  });

  it("break 3: fails a wiring file that links out of the repository, naming it, without reading it", async () => {
    await run(["init", "--command", "ctx"]);
    rmSync(join(repo, ".gitignore"));
    symlinkSync("/dev/zero", join(repo, ".gitignore")); // read, it would never end
    const { code, byId } = await doctorJson();
    expect(code).toBe(1);
    expect(byId["repo-links"]).toMatchObject({
      status: "fail",
      message: expect.stringContaining(".gitignore is a symbolic link to /dev/zero"),
    });
  });

  it("fails a state file that does not verify", async () => {
    await run(["init", "--command", "ctx"]);
    writeFileSync(join(repo, ".ctx", "state.ctx"), "not a container");
    const { code, byId } = await doctorJson();
    expect(code).toBe(1);
    expect(byId["state-file"]).toMatchObject({ status: "fail", message: expect.stringContaining(".ctx/state.ctx") });
  });

  it("fails a .ctx that is a file, with init's explanation, not `ctx init`", async () => {
    writeFileSync(join(repo, ".ctx"), "another tool's file\n");
    const { code, byId } = await doctorJson();
    expect(code).toBe(1);
    expect(byId["ctx-dir"]).toMatchObject({
      status: "fail",
      message: expect.stringContaining(`${join(repo, ".ctx")} exists but is a file, not a folder`),
      fix: expect.stringContaining("rename or remove it"),
    });
  });

  it("gives the absolute path in the fix for a bad state file (doctor may run from a subfolder)", async () => {
    await run(["init", "--command", "ctx"]);
    writeFileSync(join(repo, ".ctx", "state.ctx"), "not a container");
    const { byId } = await doctorJson();
    expect(byId["state-file"]?.fix).toContain(`mv ${join(repo, ".ctx", "state.ctx")} `);
  });

  it("counts temp files of killed writers as a warning and deletes nothing", async () => {
    await run(["init", "--command", "ctx"]);
    const stale = join(repo, ".ctx", ".state.ctx.4242.0123456789ab.tmp");
    const fresh = join(repo, ".ctx", ".state.ctx.4243.0123456789ab.tmp");
    writeFileSync(stale, "half");
    writeFileSync(fresh, "half");
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stale, hourAgo, hourAgo);
    const { code, byId } = await doctorJson();
    expect(code).toBe(0);
    expect(byId["temp-files"]).toMatchObject({ status: "warn", message: expect.stringMatching(/^1 leftover/) });
    expect(byId["temp-files"]?.fix).toContain(join(repo, ".ctx"));
    expect(existsSync(stale) && existsSync(fresh)).toBe(true);
  });

  it("fails an invalid config with the loader's message", async () => {
    await run(["init", "--command", "ctx"]);
    writeFileSync(join(repo, ".ctx", "config.json"), "[1]");
    const { code, byId } = await doctorJson();
    expect(code).toBe(1);
    expect(byId.config).toMatchObject({ status: "fail", message: expect.stringContaining("config.json") });
  });

  it("reads user-level settings from CLAUDE_CONFIG_DIR", async () => {
    await run(["init", "--command", "ctx"]);
    const configDir = join(root, "claude-config");
    mkdirSync(configDir);
    const userHooks = {
      hooks: { Stop: [{ hooks: [{ type: "command", command: "claude-ctx", args: ["hook", "stop"] }] }] },
    };
    writeFileSync(join(configDir, "settings.json"), JSON.stringify(userHooks));
    env.CLAUDE_CONFIG_DIR = configDir;
    const { byId } = await doctorJson();
    expect(byId["user-hooks"]).toMatchObject({
      status: "warn",
      message: expect.stringContaining(join(configDir, "settings.json")),
    });
    expect(byId["user-mcp"]?.message).toContain(join(configDir, ".claude.json"));
  });
});
