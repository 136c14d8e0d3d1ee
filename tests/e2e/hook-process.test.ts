// `ctx hook <event>` as Claude Code runs it: a process fed the hook JSON on stdin.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runCtx } from "./ctx-process.ts";

let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-hook-e2e-"));
  project = join(base, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  env = { CTX_HOME: join(base, "ctx-home"), HOME: join(base, "home"), CLAUDE_PROJECT_DIR: "" };
});

const input = (event: string, extra: Record<string, unknown>) =>
  JSON.stringify({
    session_id: "0b1c2d3e-0000-4000-8000-000000000001",
    transcript_path: "/home/u/.claude/projects/-repo/0b1c2d3e-0000-4000-8000-000000000001.jsonl",
    cwd: project,
    hook_event_name: event,
    ...extra,
  });

async function status(): Promise<{ sessions: { count: number; recent: Array<Record<string, unknown>> } }> {
  const result = await runCtx(["status", "--json"], { cwd: project, env });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

describe("ctx hook (process)", () => {
  it("session-start then session-end record the session; stdout stays empty", async () => {
    const start = await runCtx(["hook", "session-start"], {
      cwd: project,
      env,
      stdin: input("SessionStart", { source: "startup", model: "claude-opus-4-6" }),
    });
    expect(start).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const end = await runCtx(["hook", "SessionEnd"], {
      cwd: project,
      env,
      stdin: input("SessionEnd", { reason: "prompt_input_exit" }),
    });
    expect(end).toMatchObject({ code: 0, stdout: "", stderr: "" });

    const { sessions } = await status();
    expect(sessions.count).toBe(1);
    expect(sessions.recent[0]).toMatchObject({
      sessionId: "0b1c2d3e-0000-4000-8000-000000000001",
      source: "startup",
      endReason: "prompt_input_exit",
    });
    expect(sessions.recent[0]?.startedAt).toEqual(expect.any(String));
    expect(sessions.recent[0]?.endedAt).toEqual(expect.any(String));
  });

  it("finds the project from a subfolder cwd (Claude Code's cwd follows `cd`)", async () => {
    const sub = join(project, "src", "deep");
    mkdirSync(sub, { recursive: true });
    const stdin = JSON.stringify({ ...JSON.parse(input("SessionStart", { source: "resume" })), cwd: sub });
    expect((await runCtx(["hook", "session-start"], { cwd: sub, env, stdin })).code).toBe(0);
    expect((await status()).sessions.recent[0]?.source).toBe("resume");
  });

  it.each([
    ["empty stdin", ["hook", "session-start"], "", /empty stdin/],
    ["garbage stdin", ["hook", "session-start"], "\u0000\u0001 not json", /not valid JSON/],
    [
      "missing fields",
      ["hook", "session-end"],
      JSON.stringify({ hook_event_name: "SessionEnd" }),
      /invalid hook input: session_id/,
    ],
    ["unknown event", ["hook", "teleport"], input("Teleport", {}), /unknown event "teleport"/],
    ["no event", ["hook"], input("SessionStart", { source: "startup" }), /missing event name/],
  ])("%s: exit 0, nothing on stdout, one line on stderr, no state written", async (_label, args, stdin, message) => {
    const result = await runCtx(args, { cwd: project, env, stdin });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect((await status()).sessions.count).toBe(0);
  });

  it("a corrupt sessions file is kept aside, reported in one stderr line, and a new one started", async () => {
    mkdirSync(join(project, ".ctx"), { recursive: true });
    const file = join(project, ".ctx", "sessions.ctx");
    writeFileSync(file, "this is not a ctx container");
    const before = await runCtx(["status", "--json"], { cwd: project, env });
    expect(JSON.parse(before.stdout).warnings[0]).toMatch(/sessions\.ctx/);

    const result = await runCtx(["hook", "session-start"], {
      cwd: project,
      env,
      stdin: input("SessionStart", { source: "startup" }),
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    const aside = /kept it as (\S+)/.exec(result.stderr)?.[1] ?? "";
    expect(aside).toMatch(/sessions\.ctx\.corrupt-/);
    expect(readFileSync(aside, "utf8")).toBe("this is not a ctx container");
    const after = await status();
    expect(after.sessions.count).toBe(1);
  });

  it("never creates a project folder that does not exist", async () => {
    const missing = join(project, "does", "not", "exist");
    const stdin = JSON.stringify({ ...JSON.parse(input("SessionStart", { source: "startup" })), cwd: missing });
    const result = await runCtx(["hook", "session-start"], {
      cwd: project,
      env: { ...env, CLAUDE_PROJECT_DIR: missing },
      stdin,
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toMatch(/does not exist/);
    expect(existsSync(join(project, "does"))).toBe(false);
  });

  it("a project ctx never initialised gets a self-ignoring .ctx/ (plugin installs)", async () => {
    await runCtx(["hook", "session-start"], { cwd: project, env, stdin: input("SessionStart", { source: "startup" }) });
    expect(readFileSync(join(project, ".ctx", ".gitignore"), "utf8")).toMatch(/^\*$/m);
    expect(statSync(join(project, ".ctx")).mode & 0o777).toBe(0o700);
    expect(statSync(join(project, ".ctx", "sessions.ctx")).mode & 0o777).toBe(0o600);
  });

  it("does nothing at all when CTX_HOOKS_DISABLED=1 (ctx's own child `claude` runs)", async () => {
    const result = await runCtx(["hook", "session-start"], {
      cwd: project,
      env: { ...env, CTX_HOOKS_DISABLED: "1" },
      stdin: input("SessionStart", { source: "startup" }),
    });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect((await status()).sessions.count).toBe(0);
  });

  it("an invalid project config does not break the hook", async () => {
    mkdirSync(join(project, ".ctx"), { recursive: true });
    writeFileSync(join(project, ".ctx", "config.json"), '{"hooks": {"handlerTimeoutMs": "soon"}}');
    const result = await runCtx(["hook", "session-start"], {
      cwd: project,
      env,
      stdin: input("SessionStart", { source: "startup" }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/config\.json.*hooks\.handlerTimeoutMs/);
    expect((await status()).sessions.count).toBe(1);
  });
});
