// A fork ctx runs, into the fork log (docs/forks.md): the search picker's "run it now" and `ctx fork`. Recorded
// before the run starts (the run hands the terminal to Claude Code and may last hours); a log that cannot be
// written is one line on stderr, never a reason not to fork.
import { appendForkLog } from "../store/library/fork-log.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import type { CliContext } from "./command-io.ts";

export async function recordForkRun(
  ctx: CliContext,
  via: "picker" | "fork",
  sessionId: string,
  point: string | null,
): Promise<void> {
  try {
    await appendForkLog(ctx.env, { kind: "run", at: Date.now(), via, sessionId, point });
  } catch (error) {
    ctx.err(`ctx: ${sanitizeLogLine(`fork history: could not record this fork: ${(error as Error).message}`)}\n`);
  }
}
