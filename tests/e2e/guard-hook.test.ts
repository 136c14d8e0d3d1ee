// `ctx hook post-tool-use` as Claude Code runs it, on a synthetic transcript that grows call by call: the
// guard speaks on each tier change only, saves / checkpoints / snapshots at the higher tiers, restarts after a
// compaction, and `ctx status --json` carries its figures.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { readGuardState } from "../../src/store/guard/guard-store.ts";
import { listSnapshots } from "../../src/store/snapshots/snapshots.ts";
import {
  assistantToolUse,
  compactBoundary,
  type LineContext,
  toolResult,
  userPrompt,
} from "../helpers/transcript-lines.ts";
import { runCtx } from "./ctx-process.ts";

const SESSION = "9a8b7c6d-0000-4000-8000-00000000a11d";
let project: string;
let transcript: string;
let env: NodeJS.ProcessEnv;
let line: LineContext;
let calls = 0;

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-guard-e2e-"));
  project = join(base, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, ".ctx"), { mode: 0o700 });
  transcript = join(base, `${SESSION}.jsonl`);
  env = { CTX_HOME: join(base, "ctx-home"), HOME: join(base, "home"), CLAUDE_PROJECT_DIR: "" };
  line = { sessionId: SESSION, cwd: project };
  appendFileSync(transcript, `${userPrompt(line, "Refactor the retry helper.")}\n`);
});

/** `ctx hook <event>` as Claude Code runs it in `cwd` (the project by default), for this session's transcript. */
function runHook(event: string, fields: Record<string, unknown>, cwd: string = project) {
  return runCtx(["hook", event], {
    cwd,
    env,
    stdin: JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd, ...fields }),
  });
}

/** One tool call: the reply that made it (reporting `context` tokens in), its result, then the hook. */
async function toolCall(context: number): Promise<Record<string, unknown> | null> {
  calls += 1;
  const id = `toolu_${calls}`;
  const usage = {
    input_tokens: 3,
    cache_creation_input_tokens: 500,
    cache_read_input_tokens: context - 503,
    output_tokens: 20,
  };
  appendFileSync(transcript, `${assistantToolUse(line, id, "Read", { file_path: join(project, "a.ts") }, usage)}\n`);
  appendFileSync(transcript, `${toolResult(line, id, "export const a = 1;")}\n`);
  const result = await runHook("post-tool-use", {
    hook_event_name: "PostToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(project, "a.ts") },
    tool_response: { type: "text" },
  });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe("");
  return result.stdout === "" ? null : JSON.parse(result.stdout);
}

const noteOf = (reply: Record<string, unknown> | null) =>
  String((reply?.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext ?? "");

describe("the context guard through hook processes", () => {
  it("speaks once per tier as the transcript grows, acts at each tier, restarts after a compaction", async () => {
    // 200K window, auto-compaction at 167K. 1% of the window per call up to the warning at 108K.
    for (const used of [100_000, 102_000, 104_000, 106_000]) expect(await toolCall(used)).toBeNull();
    const warning = await toolCall(108_000);
    expect(warning?.hookSpecificOutput).toMatchObject({ hookEventName: "PostToolUse" });
    expect(noteOf(warning)).toMatch(
      /^ctx context guard \(warning\): 54% of the 200K-token window is in use \(108K tokens\); 29\.5% of the window remains/,
    );
    expect(noteOf(warning)).toContain("about 29 more before auto-compaction");
    expect(warning?.systemMessage).toBeUndefined();
    expect(await toolCall(110_000)).toBeNull(); // same tier: silent

    // 2% per call from here: advisory at 138K (14.5% left), yellow at 154K (6.5%), critical at 162K (2.5%).
    for (const used of [114_000, 118_000, 122_000, 126_000, 130_000, 134_000]) expect(await toolCall(used)).toBeNull();
    const advisory = await toolCall(138_000);
    expect(noteOf(advisory)).toContain("ctx context guard (advisory)");
    expect(noteOf(advisory)).toContain("ctx saved the working state; it is restored after compaction");
    expect(existsSync(join(project, ".ctx", "state.ctx"))).toBe(true);
    expect(advisory?.systemMessage).toBeUndefined();

    for (const used of [142_000, 146_000, 150_000]) expect(await toolCall(used)).toBeNull();
    const yellow = await toolCall(154_000);
    expect(noteOf(yellow)).toMatch(
      /ctx saved the working state, wrote checkpoint \S+; it is restored after compaction/,
    );
    expect(noteOf(yellow)).toContain("Wrap up the current step now");
    expect(readdirSync(join(project, ".ctx", "checkpoints")).length).toBeGreaterThan(0);
    expect(yellow?.systemMessage).toBe("ctx: context yellow: 77% used, ~3 tool calls to auto-compact.");

    expect(await toolCall(158_000)).toBeNull();
    const critical = await toolCall(162_000);
    expect(noteOf(critical)).toContain("ctx context guard (critical)");
    expect(noteOf(critical)).toContain("ask them to run /compact now");
    const snapshots = await listSnapshots(project);
    expect(snapshots.map((s) => s.trigger)).toEqual(["guard"]);
    expect(noteOf(critical)).toContain(`took snapshot ${snapshots[0]?.id}`);
    expect(await toolCall(163_000)).toBeNull();

    // Compaction: the boundary (no postTokens) with no reply after it yet, then the next reply.
    appendFileSync(transcript, `${compactBoundary(line, 165_000)}\n`);
    const status = async () => JSON.parse((await runCtx(["status", "--json"], { cwd: project, env })).stdout);
    calls += 1;
    const atBoundary = await runHook("post-tool-use", { hook_event_name: "PostToolUse", tool_name: "Read" });
    expect(atBoundary).toMatchObject({ code: 0, stdout: "" });
    expect((await status()).health).toMatchObject({
      tier: "ok",
      usedTokens: null,
      lastCompaction: { trigger: "manual", preTokens: 165_000 },
    });
    // 4% per call: the warning threshold rises to 32% (8 calls of headroom at the largest step), so 110K
    // (28.5% left) is announced again after the reset.
    for (let used = 30_000; used <= 102_000; used += 8_000) expect(await toolCall(used)).toBeNull();
    expect(noteOf(await toolCall(110_000))).toContain("ctx context guard (warning)");

    const health = (await status()).health;
    expect(health).toMatchObject({
      sessionId: SESSION,
      tier: "warning",
      usedTokens: 110_000,
      windowTokens: 200_000,
      percentUsed: 55,
      velocity: 4,
      forecastOperations: 7,
      thresholds: { warning: 32, advisory: 16, yellow: 8, critical: 4 },
      lastCompaction: { trigger: "manual", preTokens: 165_000 },
    });
    expect(health.recentMeasurements).toHaveLength(10);
    const file = join(project, ".ctx", "guard", `${SESSION}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(project, ".ctx", "guard")).mode & 0o777).toBe(0o700);
    const text = (await runCtx(["status"], { cwd: project, env })).stdout;
    expect(text).toContain(
      "context guard: warning · 110K tokens of 200K (55% used, 28.5% left before auto-compaction at 167K)",
    );
  }, 60_000);

  it("Stop steps the guard for a turn whose tool calls no PostToolUse tick followed (an mcp_tool hook skipped)", async () => {
    const stop = () => runHook("stop", { hook_event_name: "Stop" });
    const usage = (context: number) => ({
      input_tokens: 3,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: context - 503,
      output_tokens: 20,
    });
    // A first turn without any tool call: nothing went unticked, so Stop leaves the guard alone.
    expect(await stop()).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(readGuardState(project, SESSION)).toBeNull();
    // A turn of three tool calls with no tick after any of them (ctx's server not connected yet).
    for (const [n, used] of [100_000, 150_000, 170_000].entries()) {
      appendFileSync(
        transcript,
        `${assistantToolUse(line, `toolu_s${n}`, "Read", { file_path: "a.ts" }, usage(used))}\n`,
      );
      appendFileSync(transcript, `${toolResult(line, `toolu_s${n}`, "x")}\n`);
    }
    const first = await stop();
    expect(first).toMatchObject({ code: 0, stderr: "" });
    const guard = readGuardState(project, SESSION);
    expect(guard?.usedTokens).toBe(170_000);
    // The guard acted at its tier and its line for the person came back as Stop's systemMessage.
    expect(guard?.tier).not.toBe("ok");
    expect(JSON.parse(first.stdout).systemMessage).toMatch(/context/i);
    expect(JSON.parse(first.stdout)).not.toHaveProperty("hookSpecificOutput");
    // A tick after the next call (the server is connected now): the Stop after it leaves the guard alone.
    await toolCall(172_000);
    const measured = readGuardState(project, SESSION)?.measurements.length;
    appendFileSync(transcript, `${userPrompt(line, "thanks")}\n`);
    expect(await stop()).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(readGuardState(project, SESSION)?.measurements.length).toBe(measured);
  });

  it("writes the rolling checkpoint every N messages below every tier (the lean entry's door into the program: src/hooks/runtime/rare-paths.ts)", async () => {
    env = { ...env, CTX_CHECKPOINTS__INTERVAL_MESSAGES: "4" };
    // A session saved once (the checkpoint copies the session's saved state), then quiet tool calls.
    const start = await runHook("session-start", { hook_event_name: "SessionStart", source: "startup" });
    expect(start.code).toBe(0);
    expect((await runCtx(["save"], { cwd: project, env: { ...env, CLAUDE_PROJECT_DIR: project } })).code).toBe(0);
    for (let i = 0; i < 4; i++) expect(await toolCall(20_000)).toBeNull();
    const checkpoints = join(project, ".ctx", "checkpoints");
    expect(existsSync(checkpoints) ? readdirSync(checkpoints).length : 0).toBeGreaterThan(0);
  });

  it("an invalid config (a file, then a variable) costs one stderr line and the defaults, never the tool call", async () => {
    writeFileSync(join(project, ".ctx", "config.json"), '{"guard":{"warningPercent":"x"}}');
    const fromFile = await runHook("post-tool-use", { hook_event_name: "PostToolUse", tool_name: "Read" });
    expect(fromFile).toMatchObject({ code: 0, stdout: "" });
    expect(fromFile.stderr).toBe(
      `ctx hook: post-tool-use: ${join(project, ".ctx", "config.json")}: guard.warningPercent: expected number; running on the default settings\n`,
    );
    rmSync(join(project, ".ctx", "config.json"));
    env = { ...env, CTX_GUARD__WARNING_PERCENT: "abc" };
    const fromEnv = await runHook("stop", { hook_event_name: "Stop" });
    expect(fromEnv).toMatchObject({ code: 0, stdout: "" });
    expect(fromEnv.stderr).toContain(
      'CTX_GUARD__WARNING_PERCENT: "abc" is not a number; running on the default settings',
    );
    // The measurements go on, on the defaults.
    expect(readGuardState(project, SESSION)?.operations).toBe(1);
  });

  it("in a project ctx does not manage (no .ctx/), it measures nothing and writes nothing", async () => {
    const bare = join(mkdtempSync(join(tmpdir(), "ctx-guard-bare-")), "repo");
    mkdirSync(join(bare, ".git"), { recursive: true });
    const result = await runHook("post-tool-use", { hook_event_name: "PostToolUse", tool_name: "Read" }, bare);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(join(bare, ".ctx"))).toBe(false);
  });

  it("`ctx statusline` as Claude Code runs it: one line on stdout, exit 0, even for garbage", async () => {
    const sample = readFileSync(
      new URL("../fixtures/statusline/statusline-test-sonnet4.json", import.meta.url),
      "utf8",
    );
    const input = { ...JSON.parse(sample), cwd: project, workspace: { current_dir: project, project_dir: project } };
    const line = await runCtx(["statusline"], { cwd: project, env, stdin: JSON.stringify(input) });
    expect(line).toMatchObject({ code: 0, stdout: "ctx 18% used (35K/200K) · ok\n", stderr: "" });
    expect(existsSync(join(project, ".ctx", "guard", `${input.session_id}.statusline.json`))).toBe(true);
    expect(await runCtx(["statusline"], { cwd: project, env, stdin: "\u0000garbage" })).toMatchObject({
      code: 0,
      stdout: "ctx\n",
    });
  });
});
