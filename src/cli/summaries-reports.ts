// The `--json` output of the summaries commands (summarize, summaries ledger|clear, context-stats), one schema
// each, so scripts can rely on the shape and the tests check every output against its schema.
import * as z from "zod/mini";

const LayerSchema = z.object({ messages: z.int(), tokens: z.int() });

export const ContextStatsReportSchema = z.object({
  sessionId: z.string(),
  messages: z.int(),
  exactTokenMessages: z.int(),
  originalTokens: z.int(),
  assembledTokens: z.int(),
  budgetTokens: z.int(),
  compressionRatio: z.number(),
  contextTokens: z.nullable(z.int()),
  layers: z.object({ aggregate: LayerSchema, summarized: LayerSchema, recent: LayerSchema }),
  summaries: z.object({ stored: z.int(), byProvider: z.record(z.string(), z.int()) }),
});
export type ContextStatsReport = z.infer<typeof ContextStatsReportSchema>;

export const SummarizeReportSchema = z.object({
  sessionId: z.string(),
  transcriptPath: z.string(),
  provider: z.enum(["extractive", "claude-cli", "anthropic"]),
  messages: z.int(),
  made: z.int(),
  reused: z.int(),
  llmRequests: z.int(),
  /** Messages an LLM provider was asked for but that were summarised extractively (cap, failure). */
  fallbacks: z.int(),
  warnings: z.array(z.string()),
  redactions: z.int(),
  sidecar: z.string(),
  movedAside: z.nullable(z.string()),
  stats: ContextStatsReportSchema,
});
export type SummarizeReport = z.infer<typeof SummarizeReportSchema>;

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

export const SummariesClearReportSchema = z.object({ removed: z.array(z.string()) });
export type SummariesClearReport = z.infer<typeof SummariesClearReportSchema>;
