// ctx_context_stats: how a session's context assembles within the token budget: messages and tokens per layer
// (aggregate, summarised, recent), the compression ratio, and the summaries stored. Missing summaries are
// made with the extractive provider (offline, fast); LLM summaries only come from ctx_summarize.
import * as z from "zod/mini";
import { ContextStatsSchema, formatContextStats } from "../../core/summaries/stats.ts";
import { contextStats } from "../../summaries/operations.ts";
import { defineTool } from "../define-tool.ts";
import { resolveSummariesToolSession, SessionArgument, summariesOpsDeps } from "../shared/summaries-tools.ts";

export const contextStatsTool = defineTool({
  name: "ctx_context_stats",
  title: "ctx context stats",
  description:
    "Report how a session's conversation compresses into the summaries assembly: tokens and messages per layer " +
    "(oldest folded, middle summarised, recent verbatim), the compression ratio, the budget, and the last " +
    "reply's real context size. `preset: bridge` uses the chat bridge's policy (last 5 verbatim, 6-20 summarised).",
  input: {
    session: SessionArgument,
    preset: z
      .optional(z.enum(["smart", "bridge"]))
      .check(z.describe("Assembly layout (default: smart, the configured one).")),
  },
  output: ContextStatsSchema,
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  handle: async ({ session, preset }, deps) => {
    const ref = await resolveSummariesToolSession(deps, session);
    const { stats } = await contextStats(summariesOpsDeps(deps), ref, preset ?? "smart");
    return { text: formatContextStats(stats), structured: stats };
  },
});
