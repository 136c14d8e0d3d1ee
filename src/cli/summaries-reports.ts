// The `--json` output of `ctx summaries ledger|clear`, one schema each, so scripts can rely on the shape and the
// tests check every output against its schema. summarize and context-stats print the results the MCP tools
// return too: SummarizeReportSchema (src/summaries/operations.ts) and ContextStatsSchema (src/core/summaries/stats.ts).
import * as z from "zod/mini";

export const LedgerReportSchema = z.object({
  path: z.string(),
  dailyTokenCap: z.int(),
  today: z.object({ day: z.string(), usedTokens: z.int(), remainingTokens: z.int() }),
  rows: z.array(
    z.object({
      day: z.string(),
      provider: z.string(),
      model: z.string(),
      requests: z.int(),
      inputTokens: z.int(),
      outputTokens: z.int(),
      refused: z.int(),
    }),
  ),
  movedAside: z.nullable(z.string()),
});
export type LedgerReport = z.infer<typeof LedgerReportSchema>;

// Shared with the ctx_clear_summaries tool.
export { type SummariesClearReport, SummariesClearReportSchema } from "../summaries/operations.ts";
