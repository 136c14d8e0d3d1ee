// The `claude-cli` summary provider: one `claude -p` run per batch, prompt on stdin, JSON result on stdout.
// `--no-session-persistence` keeps the summariser's own runs out of the transcripts ctx indexes, and
// CTX_HOOKS_DISABLED=1 makes every ctx hook in the child return at once, so summarising cannot recurse
// (docs/claude-code-facts.md "Running Claude Code from ctx"); `--strict-mcp-config` without a config starts none of the
// user's MCP servers, `--max-turns 1` keeps it to one answer. It runs in a folder of its own under CTX_HOME, so no
// project's CLAUDE.md, hooks or MCP servers load in it. The child leads its own process group: past the timeout the
// group is killed, so nothing it started (hooks, MCP servers) outlives it (the same page).
import { join } from "node:path";
import { withHooksDisabled } from "../config/hooks-disabled.ts";
import { ctxHome } from "../config/paths.ts";
import { type LlmAnswer, parseClaudeCliOutput } from "../core/summaries/llm-prompt.ts";
import { CtxError } from "../errors.ts";
import { ensurePrivateDir } from "../store/files/atomic-write.ts";
import { runClaudeProcess } from "./claude-process.ts";
import type { LlmClient } from "./llm-client.ts";

export interface ClaudeCliOptions {
  model: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** The executable; `claude` on PATH by default. */
  command?: string;
  /** Where the child runs; default `<CTX_HOME>/summarizer` (made 0700). */
  cwd?: string;
}

const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

export function claudeCliArgs(model: string): string[] {
  return [
    "-p",
    "--output-format",
    "json",
    "--no-session-persistence",
    "--model",
    model,
    "--max-turns",
    "1",
    "--strict-mcp-config",
  ];
}

export function createClaudeCliClient(options: ClaudeCliOptions): LlmClient {
  return {
    provider: "claude-cli",
    model: options.model,
    complete: (prompt) => runClaude(prompt, options),
  };
}

async function runClaude(prompt: string, options: ClaudeCliOptions): Promise<LlmAnswer> {
  const command = options.command ?? "claude";
  const cwd = options.cwd ?? join(ctxHome(options.env), "summarizer");
  await ensurePrivateDir(cwd);
  const outcome = await runClaudeProcess({
    command,
    args: claudeCliArgs(options.model),
    cwd,
    env: { ...withHooksDisabled(options.env), CLAUDE_CODE_SKIP_PROMPT_HISTORY: "1" },
    input: prompt,
    timeoutMs: options.timeoutMs,
    killGraceMs: 0,
    maxStdoutBytes: MAX_OUTPUT_BYTES,
  });
  if (outcome.kind === "timed-out") {
    throw new CtxError("PROVIDER_FAILED", `claude -p did not answer within ${options.timeoutMs} ms`, {
      hint: "raise summaries.timeoutMs, or use --provider extractive",
    });
  }
  if (outcome.kind === "spawn-failed") {
    const { error } = outcome;
    throw error.code === "ENOENT"
      ? new CtxError("PROVIDER_UNAVAILABLE", `\`${command}\` was not found on PATH`, {
          hint: "install Claude Code (npm i -g @anthropic-ai/claude-code) or use --provider extractive",
          cause: error,
        })
      : // The code, not the message: Node's message quotes the refused argument.
        new CtxError("PROVIDER_FAILED", `could not run ${command} (${error.code ?? "error"})`, { cause: error });
  }
  const { stdout, stderr, code } = outcome;
  try {
    return parseClaudeCliOutput(stdout);
  } catch (error) {
    const detail = stderr.trim().slice(0, 300);
    if (code !== 0 && stdout.trim() === "") {
      throw new CtxError("PROVIDER_FAILED", `claude -p exited with ${code}${detail === "" ? "" : `: ${detail}`}`, {
        hint: "run `claude -p hello` to see whether Claude Code works here (login, network, model name)",
      });
    }
    throw error;
  }
}
