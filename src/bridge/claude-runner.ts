// One turn of Claude Code for the bridge: `claude -p --output-format json [--resume <id>]
// [--append-system-prompt <summary>] <bridge.claude.args>` in the configured folder, the prompt on stdin. The
// child leads its own process group: past the time limit the whole group (Claude, its hooks, its MCP servers)
// gets SIGTERM, then SIGKILL. CTX_HOOKS_DISABLED is deliberately not set: this is a real session, and ctx's own
// hooks may run in it. An error says what failed in words and codes, never the command line or the system prompt
// (break 5): the detail (Node's message, Claude's stderr) goes to the log through `warn`.
import { join } from "node:path";
import * as z from "zod/mini";
import { contextTokensOf, type ReportedUsage } from "../core/bridge/context.ts";
import { CtxError } from "../errors.ts";
import { readContextTail } from "../store/transcript/tail.ts";
import { runClaudeProcess, signalGroup } from "../summaries/claude-process.ts";

export interface ClaudeTurnRequest {
  prompt: string;
  resume: string | null;
  appendSystemPrompt: string | null;
}

export interface ClaudeTurnAnswer {
  text: string;
  sessionId: string;
  /** What the run used in all (billing totals): summed over its API calls. */
  usage: ReportedUsage;
  /** The context size after the turn: the last API call's input + cache creation + cache read. */
  contextTokens: number;
  durationMs: number;
}

interface ParsedTurn {
  text: string;
  sessionId: string;
  usage: ReportedUsage;
  /** API calls the run made (1 when the model used no tool). */
  calls: number;
}

export interface ClaudeRunnerOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Claude Code's transcript folder for `cwd` (`~/.claude/projects/<cwd>`), read for the last call's usage. */
  transcriptDir: string | null;
  /** The log, for the detail of a failure that the error (which reaches the chat) must not quote. */
  warn?: (line: string) => void;
}

/** Detail kept for the log: the last lines, short. */
const LOG_DETAIL_CHARS = 300;

/**
 * The context after a turn. One API call: the result's usage is that call's. Several (tool use): the result sums
 * them, so the last reply's usage is read from the session's transcript; without it the sum stands (an overcount:
 * a summary comes early, never late).
 */
export function turnContextTokens(turn: ParsedTurn, transcriptDir: string | null): number {
  const summed = contextTokensOf(turn.usage);
  if (turn.calls <= 1 || transcriptDir === null) return summed;
  const reading = readContextTail(join(transcriptDir, `${turn.sessionId}.jsonl`)).reading;
  return reading?.source === "usage" && reading.usedTokens !== null ? reading.usedTokens : summed;
}

export type ClaudeRunner = (request: ClaudeTurnRequest) => Promise<ClaudeTurnAnswer>;

const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const KILL_GRACE_MS = 2_000;

const ResultSchema = z.object({
  type: z.optional(z.string()),
  subtype: z.optional(z.string()),
  is_error: z.optional(z.boolean()),
  result: z.optional(z.string()),
  // A file name below: Claude Code's session ids are UUIDs.
  session_id: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/)),
  num_turns: z.optional(z.number()),
  usage: z.optional(
    z.object({
      input_tokens: z.optional(z.number()),
      output_tokens: z.optional(z.number()),
      cache_creation_input_tokens: z.optional(z.number()),
      cache_read_input_tokens: z.optional(z.number()),
    }),
  ),
});

export function claudeTurnArgs(request: ClaudeTurnRequest, extra: readonly string[]): string[] {
  const args = ["-p", "--output-format", "json"];
  if (request.resume !== null) args.push("--resume", request.resume);
  if (request.appendSystemPrompt !== null) args.push("--append-system-prompt", request.appendSystemPrompt);
  return [...args, ...extra];
}

/** Reads the JSON result (the last JSON line, in case anything printed before it). */
export function parseClaudeTurnOutput(stdout: string): ParsedTurn {
  const lines = stdout.trim().split("\n").reverse();
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("{")) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      continue;
    }
    const parsed = ResultSchema.safeParse(value);
    if (!parsed.success) continue;
    const result = parsed.data;
    if (result.is_error === true) {
      throw new CtxError(
        "PROVIDER_FAILED",
        `Claude Code reported an error: ${(result.result ?? result.subtype ?? "no detail").slice(0, 300)}`,
      );
    }
    return {
      text: result.result ?? "",
      sessionId: result.session_id,
      usage: result.usage ?? {},
      calls: Math.max(1, Math.round(result.num_turns ?? 1)),
    };
  }
  throw new CtxError("PROVIDER_FAILED", `Claude Code printed no JSON result (${describeOutput(stdout)})`, {
    hint: "bridge.claude.args must not change --output-format; run the command by hand to see what it prints",
  });
}

function describeOutput(stdout: string): string {
  const text = stdout.trim();
  if (text === "") return "nothing on stdout";
  return `stdout began: ${JSON.stringify(text.slice(0, 80))}`;
}

export interface ClaudeProcesses {
  run: ClaudeRunner;
  /** Ends every running turn's process group (a stopping bridge; the journal runs them again on start). */
  killAll(): void;
}

export function createClaudeRunner(options: ClaudeRunnerOptions): ClaudeProcesses {
  const live = new Set<number>();
  return {
    run: (request) => runClaudeTurn(request, options, live),
    killAll: () => {
      for (const pid of live) signalGroup(pid, "SIGKILL");
    },
  };
}

async function runClaudeTurn(
  request: ClaudeTurnRequest,
  options: ClaudeRunnerOptions,
  live: Set<number>,
): Promise<ClaudeTurnAnswer> {
  const started = performance.now();
  const outcome = await runClaudeProcess({
    command: options.command,
    args: claudeTurnArgs(request, options.args),
    cwd: options.cwd,
    env: options.env,
    input: request.prompt,
    timeoutMs: options.timeoutMs,
    killGraceMs: KILL_GRACE_MS,
    maxStdoutBytes: MAX_OUTPUT_BYTES,
    onStart: (pid) => live.add(pid),
    onClose: (pid) => live.delete(pid),
  });
  if (outcome.kind === "timed-out") {
    throw new CtxError("PROVIDER_FAILED", `Claude did not answer within ${Math.round(options.timeoutMs / 1000)} s`, {
      hint: "raise bridge.claude.timeoutMs for long tasks",
    });
  }
  if (outcome.kind === "spawn-failed") {
    const { error } = outcome;
    if (error.code === "ENOENT") {
      throw new CtxError("PROVIDER_UNAVAILABLE", `\`${options.command}\` was not found`, {
        hint: "install Claude Code or set bridge.claude.command to its full path",
        cause: error,
      });
    }
    options.warn?.(`bridge: could not start ${options.command}: ${error.message.slice(0, LOG_DETAIL_CHARS)}`);
    throw new CtxError("PROVIDER_FAILED", `could not start ${options.command} (${error.code ?? "no error code"})`, {
      hint: "the bridge's log has the detail",
      cause: error,
    });
  }
  const { stdout, stderr, code, signal } = outcome;
  try {
    const turn = parseClaudeTurnOutput(stdout);
    return {
      text: turn.text,
      sessionId: turn.sessionId,
      usage: turn.usage,
      contextTokens: turnContextTokens(turn, options.transcriptDir),
      durationMs: performance.now() - started,
    };
  } catch (error) {
    if (code === 0 && signal === null) throw error;
    const how = signal ?? `code ${code}`;
    const detail = stderr.trim().split("\n").slice(-3).join(" ").slice(0, LOG_DETAIL_CHARS);
    if (detail !== "") options.warn?.(`bridge: Claude exited with ${how}: ${detail}`);
    throw new CtxError("PROVIDER_FAILED", `Claude exited with ${how}`, {
      hint: "run `claude -p hello` as the bridge's user to see whether Claude Code works (login, network)",
    });
  }
}
