// ctx_summarize: makes the session's per-message summaries now (missing ones, or all from `from` on) with the
// configured provider, stores them, and returns the assembled context: recent messages verbatim, the ones
// before summarised, the oldest folded into one aggregate.
import * as z from "zod/mini";
import { truncateText } from "../../core/transcript/text.ts";
import { SummarizeReportSchema, summarizeReportOf, summarizeSession } from "../../summaries/operations.ts";
import { defineTool } from "../define-tool.ts";
import { resolveSummariesToolSession, SessionArgument, summariesOpsDeps } from "../shared/summaries-tools.ts";

/** The assembled text stays well under Claude Code's MCP output limit. */
const MAX_TEXT_CHARS = 60_000;

export const summarizeTool = defineTool({
  name: "ctx_summarize",
  title: "ctx summarize",
  description:
    "Summarise a Claude Code session message by message (each message knowing its neighbours) and return the " +
    "assembled context within the token budget: the most recent messages verbatim, the ones before as one " +
    "summary each, everything older folded into one summary. Summaries are kept in .ctx/summaries/ and reused; " +
    "`from` (a message uuid) makes them again from that message on. Secrets are redacted.",
  input: {
    session: SessionArgument,
    from: z
      .optional(z.string().check(z.minLength(1), z.maxLength(200)))
      .check(z.describe("Summarise again from this message uuid on.")),
  },
  output: SummarizeReportSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  handle: async ({ session, from }, deps) => {
    const ref = await resolveSummariesToolSession(deps, session);
    const result = await summarizeSession(summariesOpsDeps(deps), ref, from === undefined ? {} : { from });
    const s = result.summaries;
    const st = result.stats;
    const header =
      `Session ${ref.sessionId}: ${s.made} messages summarised now (${s.provider}), ${s.reused} reused; ` +
      `assembled ${st.assembledTokens} of ${st.originalTokens} tokens.` +
      s.warnings.map((warning) => `\nWarning: ${warning}`).join("");
    return {
      text: `${header}\n\n${truncateText(result.assembly.text, MAX_TEXT_CHARS)}`,
      structured: summarizeReportOf(result),
    };
  },
});
