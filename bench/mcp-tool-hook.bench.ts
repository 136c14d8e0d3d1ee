// ctx's PostToolUse both ways inside the real Claude Code (the e2e harness: `claude` 2.1.330 against the scripted
// Messages API mock): the command hook (`ctx hook post-tool-use`, a Node process per tool call) against the
// `mcp_tool` hook (ctx_guard_tick on the already-running `ctx serve`, which answers at once and measures after;
// with tool_use_id, so the measurement waits for the reply's line, and without), next to no PostToolUse hook.
// Each session makes BENCH_TOOL_CALLS tool calls (TaskCreate: no I/O of its own); the rounds interleave the
// three wirings so a busy machine slows all alike. Two figures per wiring:
// - the interval between consecutive model requests (one tool call, its hooks and Claude Code's own work),
//   measured at the mock: the cost Claude Code's user waits for; the first interval is left out (one-off costs);
// - the hook's own duration as Claude Code logs it with --debug-file (the command hook's "(N ms)"; for
//   mcp_tool, from "mcp_tool calling" to the line that reads its answer, at the log's millisecond resolution).
// Every other hook ctx wires (SessionStart, Stop, …) stays the same in all three, so it cancels out.
import { readFile, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { readGuardState } from "../src/store/guard/guard-store.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "../tests/e2e/harness/claude-cli.ts";
import { runClaudeTurn } from "../tests/e2e/harness/claude-turn.ts";
import type { MockTurn } from "../tests/e2e/harness/messages-api.ts";
import { approveProjectMcpServers, createSandbox, runCtx } from "../tests/e2e/harness/sandbox.ts";
import { summarize, type TimingSummary, timeProcess } from "./process-timing.ts";

const TOOL_CALLS = Number(process.env.BENCH_TOOL_CALLS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WIRINGS = ["none", "command", "mcp_tool", "mcp_tool_no_wait"] as const;
type Wiring = (typeof WIRINGS)[number];

/** What `ctx init` wires; without tool_use_id the measurement does not wait for the reply's line. */
const mcpToolHook = (waitForReply: boolean) => ({
  type: "mcp_tool",
  server: "ctx",
  tool: "ctx_guard_tick",
  input: {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholders, as settings.json holds them
    session_id: "${session_id}",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: as above
    transcript_path: "${transcript_path}",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: as above
    ...(waitForReply ? { tool_use_id: "${tool_use_id}" } : {}),
  },
  timeout: 10,
});

/** The context the mock's reply k (1-based) reports: input + cache creation + cache read. */
const contextOfReply = (k: number) => 3 + 500 + 20_000 + (k - 1) * 200;

interface SessionFigures {
  intervalsMs: number[];
  hookMs: number[];
  wallMs: number;
  /** Tool calls the guard measured (null: no measurement), to show the hook ran on every call. */
  guardOperations: number | null;
  /** Of the guard's kept measurements, how many read the reply that made their call (not an earlier one). */
  guardExact: { exact: number; kept: number };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The PostToolUse hook durations Claude Code logged for ctx. */
export function hookDurationsFromDebugLog(log: string, wiring: Wiring): number[] {
  const lines = log.split("\n");
  if (wiring === "command") {
    return lines.flatMap((line) => {
      const found = /PostToolUse:\S+ \[[^\]]*post-tool-use\] finished with status \d+ \((\d+)ms\)/.exec(line);
      return found === null ? [] : [Number(found[1])];
    });
  }
  if (wiring === "none") return [];
  // mcp_tool and mcp_tool_no_wait
  const stamp = (line: string) => Date.parse(line.slice(0, 24));
  const durations: number[] = [];
  lines.forEach((line, i) => {
    if (!line.includes("mcp_tool calling ctx/ctx_guard_tick")) return;
    const answer = lines
      .slice(i + 1)
      .find((next) => /Hook output does not start with|Successfully parsed|Hook PostToolUse:|mcp_tool hook/.test(next));
    if (answer !== undefined) durations.push(stamp(answer) - stamp(line));
  });
  return durations;
}

async function session(claudeBin: string, wiring: Wiring): Promise<SessionFigures> {
  const sandbox = await createSandbox({ claudeBin });
  try {
    // `ctx init` wires the mcp_tool hook; the command wiring is its `--hooks command`.
    const init = await runCtx(sandbox, wiring === "command" ? ["init", "--hooks", "command"] : ["init"]);
    if (init.exitCode !== 0) throw new Error(`ctx init failed: ${init.stderr}`);
    await approveProjectMcpServers(sandbox);
    const settingsPath = join(sandbox.project, ".claude", "settings.json");
    const settings = JSON.parse(await readFile(settingsPath, "utf8"));
    if (wiring === "none") delete settings.hooks.PostToolUse;
    if (wiring === "mcp_tool" || wiring === "mcp_tool_no_wait") {
      settings.hooks.PostToolUse = [{ matcher: "*", hooks: [mcpToolHook(wiring === "mcp_tool")] }];
    }
    await writeFile(settingsPath, JSON.stringify(settings, null, 2));

    // Usage well inside the window: the guard steps on every call and never speaks (no save in the figures).
    const turns: MockTurn[] = Array.from({ length: TOOL_CALLS }, (_, i) => ({
      toolUse: { name: "TaskCreate", input: { subject: `Step ${i + 1}`, activeForm: `Doing step ${i + 1}` } },
      usage: { input_tokens: 3, cache_creation_input_tokens: 500, cache_read_input_tokens: 20_000 + i * 200 },
    }));
    const debugFile = join(sandbox.root, "claude-debug.log");
    const turn = await runClaudeTurn({
      sandbox,
      prompt: "Plan the work as tasks.",
      allowedTools: ["TaskCreate"],
      args: ["--debug-file", debugFile],
      turns: [...turns, { text: "Planned." }],
      timeoutMs: 300_000,
    });
    if (turn.exitCode !== 0 || turn.result?.is_error !== false || turn.requests.length !== TOOL_CALLS + 1) {
      throw new Error(`${wiring}: the session failed (exit ${turn.exitCode}): ${turn.stderr.slice(0, 500)}`);
    }
    const arrivals = turn.requests.map((request) => request.receivedAt);
    const intervalsMs = arrivals.slice(2).map((at, i) => at - (arrivals[i + 1] ?? at));
    const hookMs = hookDurationsFromDebugLog(await readFile(debugFile, "utf8"), wiring);
    const state = readGuardState(sandbox.project, turn.result?.session_id ?? "");
    const kept = state?.measurements ?? [];
    const exact = kept.filter((m) => m.usedTokens === contextOfReply(m.op)).length;
    return {
      intervalsMs,
      hookMs,
      wallMs: turn.durationMs,
      guardOperations: state?.operations ?? null,
      guardExact: { exact, kept: kept.length },
    };
  } finally {
    await sandbox.cleanup();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const cli = await ensureClaudeCli();
  if ("skipReason" in cli) return { skipped: cli.skipReason };
  const loadBefore = loadavg().map(round1);
  const figures: Record<Wiring, SessionFigures[]> = { none: [], command: [], mcp_tool: [], mcp_tool_no_wait: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = WIRINGS.map((_, i) => WIRINGS[(i + round) % WIRINGS.length] as Wiring);
    for (const wiring of order) {
      process.stderr.write(`bench: mcp-tool-hook round ${round + 1}/${ROUNDS}: ${wiring} …\n`);
      figures[wiring].push(await session(cli.bin, wiring));
    }
  }
  // The floor no process beats, in the same run: what a command hook cannot go below on this machine now.
  const nodeFloor = timeProcess(process.execPath, ["-e", "0"], { runs: 10 });
  const loadAfter = loadavg().map(round1);

  const perWiring: Record<string, unknown> = {};
  const intervals: Record<Wiring, TimingSummary> = {} as Record<Wiring, TimingSummary>;
  for (const wiring of WIRINGS) {
    const runs = figures[wiring];
    intervals[wiring] = summarize(runs.flatMap((r) => r.intervalsMs));
    perWiring[wiring] = {
      toolCallIntervalMs: intervals[wiring],
      hookDurationMs: wiring === "none" ? null : summarize(runs.flatMap((r) => r.hookMs)),
      hookDurationsLogged: runs.reduce((n, r) => n + r.hookMs.length, 0),
      sessionWallMs: summarize(runs.map((r) => r.wallMs)),
      guardOperations: runs.map((r) => r.guardOperations),
      // The last 10 measurements of each session: those that read their own call's reply, of those kept.
      guardReadOwnReply: `${runs.reduce((n, r) => n + r.guardExact.exact, 0)}/${runs.reduce((n, r) => n + r.guardExact.kept, 0)}`,
    };
  }
  const over = (wiring: Wiring) => round1(intervals[wiring].medianMs - intervals.none.medianMs);
  return {
    claudeCode: CLAUDE_CODE_VERSION,
    toolCallsPerSession: TOOL_CALLS,
    rounds: ROUNDS,
    loadAverage: { before: loadBefore, after: loadAfter },
    nodeEmptyProcessMs: nodeFloor,
    ...perWiring,
    // What ctx's PostToolUse adds to each tool call, over no hook (medians of the intervals).
    addedPerToolCallMs: {
      command: over("command"),
      mcp_tool: over("mcp_tool"),
      mcp_tool_no_wait: over("mcp_tool_no_wait"),
    },
  };
}
