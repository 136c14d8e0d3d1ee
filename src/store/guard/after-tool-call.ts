// The work after every tool call, one place for both ways Claude Code can ask for it (the `ctx hook
// post-tool-use` process and the ctx_guard_tick MCP tool an `mcp_tool` hook calls): the rolling checkpoint,
// then the context guard, whose reply (when it speaks) is the answer. A failure of one never costs the other
// its work; failures are returned as lines, not thrown.
import { describeError } from "../../errors.ts";
import { checkpointTick } from "./checkpoint-tick.ts";
import { runContextGuard } from "./context-guard.ts";
import type { GuardDeps, GuardReply } from "./types.ts";

export interface AfterToolCallResult {
  /** The guard's note and user line, or null when it had nothing to say. */
  reply: GuardReply | null;
  /** "checkpoint tick failed: …", "context guard failed: …". */
  failures: string[];
}

export async function afterToolCall(
  input: { session_id: string; transcript_path: string },
  deps: GuardDeps,
  options: { replyEnd?: number } = {},
): Promise<AfterToolCallResult> {
  const failures: string[] = [];
  const failed = (what: string) => (error: unknown) => {
    failures.push(`${what} failed: ${describeError(error)}`);
    return null;
  };
  await checkpointTick(input, deps).catch(failed("checkpoint tick"));
  const reply = await runContextGuard(input, deps, options).catch(failed("context guard"));
  return { reply, failures };
}

/** The guard's reply as a PostToolUse hook's JSON output (what Claude Code reads from stdout or a tool's text). */
export function postToolUseHookOutput(reply: GuardReply): Record<string, unknown> {
  const output: Record<string, unknown> = {
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: reply.additionalContext },
  };
  if (reply.systemMessage !== null) output.systemMessage = reply.systemMessage;
  return output;
}
