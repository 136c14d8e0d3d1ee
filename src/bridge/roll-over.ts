// A conversation's rollover: summarised (the configured provider, or its history folded when that fails) and reset
// to a new Claude session the summary will seed. The conversation rolls over past its limits; `/new` on request
// (chat-commands.ts).
import { type BridgeSession, foldIntoSummary, resetClaudeSession } from "../core/bridge/session.ts";
import { cleanCommandText } from "../core/text/command-text.ts";
import { describeError } from "../errors.ts";
import type { RollingSummary } from "./summarize.ts";

/** What a rollover needs: the summariser, and the bridge's redaction, clock and log. */
export interface RollOverDeps {
  summarize: (session: BridgeSession) => Promise<RollingSummary>;
  redact: (text: string) => string;
  now: () => Date;
  warn: (line: string) => void;
}

/**
 * Summarises the conversation and resets it to a new Claude session that the summary will seed. A failed summary
 * is a warning, not a stop: the history is folded extractively instead.
 */
export async function rollOver(
  session: BridgeSession,
  reason: string,
  deps: RollOverDeps,
): Promise<{ session: BridgeSession }> {
  let summary: string;
  try {
    const made = await deps.summarize(session);
    for (const warning of made.warnings) deps.warn(`bridge: summary: ${deps.redact(warning)}`);
    summary = cleanCommandText(made.summary);
  } catch (error) {
    deps.warn(
      `bridge: summarising ${session.key} (${reason}) failed, folding its history instead: ${deps.redact(describeError(error))}`,
    );
    summary = foldIntoSummary(session.summary, session.history);
  }
  return {
    session: {
      ...resetClaudeSession(session),
      summary,
      summarizedAt: deps.now().toISOString(),
      summaries: session.summaries + 1,
      history: [],
    },
  };
}
