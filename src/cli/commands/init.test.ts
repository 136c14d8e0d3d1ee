// `ctx init` run in-process through runCli against a temp repository, with captured output.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { InitReportSchema } from "../../core/setup/init/report.ts";
import { CtxError } from "../../errors.ts";

let repo: string;
let bin: string;

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "ctx-init-cli-"));
  mkdirSync(join(repo, ".git"));
  mkdirSync(join(repo, "src"));
  bin = mkdtempSync(join(tmpdir(), "ctx-init-bin-"));
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(bin, { recursive: true, force: true });
});

function run(argv: string[], env: NodeJS.ProcessEnv = { PATH: bin }) {
  return runCliCaptured(argv, { cwd: join(repo, "src"), env });
}

const read = (path: string) => readFileSync(join(repo, path), "utf8");

describe("ctx init", () => {
  it("wires the repository around the current folder and lists the next steps", async () => {
    const { code, stdout } = await run(["init", "--command", "ctx"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/created\s+\.mcp\.json\s+\+ mcpServers\.ctx: ctx serve/);
    expect(stdout).toContain("ctx doctor");
    expect(stdout).toContain("restart Claude Code");
    expect(JSON.parse(read(".mcp.json")).mcpServers.ctx).toEqual({ type: "stdio", command: "ctx", args: ["serve"] });
    expect(JSON.parse(read(".claude/settings.json")).hooks.SessionEnd[0].hooks[0]).toEqual({
      type: "command",
      command: "ctx",
      args: ["hook", "session-end"],
      timeout: 10,
    });
  });

  it("--hooks command wires PostToolUse as a process; an unknown --hooks value is refused and nothing is written", async () => {
    const bad = run(["init", "--command", "ctx", "--hooks", "bogus"]);
    await expect(bad).rejects.toMatchObject({ code: "USAGE", message: '--hooks takes mcp or command, not "bogus"' });
    expect(existsSync(join(repo, ".mcp.json"))).toBe(false);
    expect(existsSync(join(repo, ".claude"))).toBe(false);
    await run(["init", "--command", "ctx"]);
    expect(JSON.parse(read(".claude/settings.json")).hooks.PostToolUse[0].hooks[0]).toMatchObject({
      type: "mcp_tool",
      server: "ctx",
      tool: "ctx_guard_tick",
    });
    const { code, stdout } = await run(["init", "--command", "ctx", "--hooks", "command"]);
    expect(code).toBe(0);
    expect(stdout).toContain("post-tool-use hook now a ctx hook process");
    expect(JSON.parse(read(".claude/settings.json")).hooks.PostToolUse[0].hooks[0]).toEqual({
      type: "command",
      command: "ctx",
      args: ["hook", "post-tool-use"],
      timeout: 10,
    });
  });

  it("says `already set up` the second time and changes no byte", async () => {
    await run(["init", "--command", "ctx"]);
    const before = [".mcp.json", ".claude/settings.json", ".claude/settings.local.json", ".gitignore"].map(read);
    const { stdout } = await run(["init", "--command", "ctx"]);
    expect(stdout).toContain("already set up");
    expect([".mcp.json", ".claude/settings.json", ".claude/settings.local.json", ".gitignore"].map(read)).toEqual(
      before,
    );
  });

  it("--dry-run --json prints the plan and writes nothing", async () => {
    const { stdout } = await run(["init", "--dry-run", "--json", "--command", "ctx", "--project", repo]);
    const report = InitReportSchema.parse(JSON.parse(stdout));
    expect(report).toMatchObject({ project: repo, dryRun: true, command: { command: "ctx", args: [] } });
    expect(report.changes.map((change) => change.action)).toEqual(Array(12).fill("create"));
    expect(existsSync(join(repo, ".mcp.json"))).toBe(false);
    expect(existsSync(join(repo, ".ctx"))).toBe(false);
  });

  it("uses absolute node + dist/ctx.js when ctx is not on PATH, and warns", async () => {
    const { stderr } = await run(["init"], { PATH: bin });
    const server = JSON.parse(read(".mcp.json")).mcpServers.ctx;
    expect(server.command).toBe(process.execPath);
    expect(server.args[0]).toMatch(/dist[\\/]ctx\.js$/);
    expect(stderr).toContain("absolute paths");
  });

  it("names hooks without a command it did not write, and --remove does not warn about absolute paths", async () => {
    const { stdout } = await run(["init"], { PATH: bin });
    expect(stdout).not.toContain("ctx hook");
    expect(stdout).toMatch(/\+ hooks\.SessionStart: session-start hook \(matcher/);
    const removed = await run(["init", "--remove"], { PATH: bin });
    expect(removed.stdout).toMatch(/removed\s+\.mcp\.json/);
    expect(removed.stderr).toBe("");
  });

  it("leaves a /fork-detect the person wrote and says so", async () => {
    mkdirSync(join(repo, ".claude", "commands"), { recursive: true });
    writeFileSync(join(repo, ".claude", "commands", "fork-detect.md"), "my own\n");
    const { stdout } = await run(["init", "--command", "ctx"]);
    expect(stdout).toMatch(/skipped\s+\.claude\/commands\/fork-detect\.md\s+differs from ctx's version/);
    expect(read(".claude/commands/fork-detect.md")).toBe("my own\n");
    const again = await run(["init", "--command", "ctx"]);
    expect(again.stdout).toContain("already set up");
    expect(again.stdout).toMatch(/skipped\s+\.claude\/commands\/fork-detect\.md/);
  });

  it("stops on invalid JSON, naming the file and position, with nothing written", async () => {
    writeFileSync(join(repo, ".mcp.json"), '{\n  "mcpServers": {,}\n}\n');
    const attempt = run(["init", "--command", "ctx"]);
    await expect(attempt).rejects.toThrow(CtxError);
    await expect(attempt).rejects.toThrow('.mcp.json is not valid JSON: unexpected "," at line 2, column 18');
    expect(existsSync(join(repo, ".claude"))).toBe(false);
    expect(existsSync(join(repo, ".gitignore"))).toBe(false);
  });

  it("--remove takes ctx out and keeps .ctx/", async () => {
    writeFileSync(join(repo, ".gitignore"), "dist/\n");
    await run(["init", "--command", "ctx"]);
    writeFileSync(join(repo, ".ctx", "state.ctx"), "data");
    const { stdout } = await run(["init", "--remove"]);
    expect(stdout).toMatch(/removed\s+\.mcp\.json/);
    expect(stdout).toContain("never deletes your saved context");
    expect(read(".gitignore")).toBe("dist/\n");
    expect(existsSync(join(repo, ".claude"))).toBe(false);
    expect(read(".ctx/state.ctx")).toBe("data");
  });
});
