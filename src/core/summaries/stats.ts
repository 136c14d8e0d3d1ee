// `ctx context-stats` / `ctx_context_stats`: what an assembly holds, per layer, and how much it compressed.
import * as z from "zod/mini";
import type { Assembly } from "./assemble.ts";

export const LayerStatsSchema = z.object({ messages: z.int(), tokens: z.int() });
export type LayerStats = z.infer<typeof LayerStatsSchema>;

/** The `ctx context-stats --json` output and the ctx_context_stats result (also inside the summarize report). */
export const ContextStatsSchema = z.object({
  sessionId: z.string(),
  messages: z.int(),
  /** Messages whose size came from the transcript's usage rather than the estimate. */
  exactTokenMessages: z.int(),
  originalTokens: z.int(),
  assembledTokens: z.int(),
  budgetTokens: z.int(),
  /** assembled / original, 0..1 (lower is more compressed). */
  compressionRatio: z.number(),
  /** The real context size of the last reply (transcript usage), or null when unknown. */
  contextTokens: z.nullable(z.int()),
  layers: z.object({ aggregate: LayerStatsSchema, summarized: LayerStatsSchema, recent: LayerStatsSchema }),
  summaries: z.object({ stored: z.int(), byProvider: z.record(z.string(), z.int()) }),
});
export type ContextStats = z.infer<typeof ContextStatsSchema>;

export function buildContextStats(input: {
  sessionId: string;
  assembly: Assembly;
  messages: number;
  exactTokenMessages: number;
  contextTokens: number | null;
  providers: readonly string[];
}): ContextStats {
  const { assembly } = input;
  const byProvider: Record<string, number> = {};
  for (const provider of input.providers) byProvider[provider] = (byProvider[provider] ?? 0) + 1;
  const sum = (items: readonly { tokens: number }[]) => items.reduce((total, item) => total + item.tokens, 0);
  return {
    sessionId: input.sessionId,
    messages: input.messages,
    exactTokenMessages: input.exactTokenMessages,
    originalTokens: assembly.originalTokens,
    assembledTokens: assembly.assembledTokens,
    budgetTokens: assembly.budgetTokens,
    compressionRatio: Number(assembly.compressionRatio.toFixed(4)),
    contextTokens: input.contextTokens,
    layers: {
      aggregate: { messages: assembly.aggregate.messages, tokens: assembly.aggregate.tokens },
      summarized: { messages: assembly.summarized.length, tokens: sum(assembly.summarized) },
      recent: { messages: assembly.recent.length, tokens: sum(assembly.recent) },
    },
    summaries: { stored: input.providers.length, byProvider },
  };
}

export function formatContextStats(stats: ContextStats): string {
  const percent = (stats.compressionRatio * 100).toFixed(1);
  const layer = (name: string, l: LayerStats) =>
    `  ${name.padEnd(11)} ${String(l.messages).padStart(5)} messages  ${String(l.tokens).padStart(7)} tokens\n`;
  const providers = Object.entries(stats.summaries.byProvider)
    .map(([name, count]) => `${count} ${name}`)
    .join(", ");
  return (
    `session     ${stats.sessionId}\n` +
    `messages    ${stats.messages} (${stats.exactTokenMessages} with exact token counts)\n` +
    `original    ${stats.originalTokens} tokens\n` +
    `assembled   ${stats.assembledTokens} tokens of a ${stats.budgetTokens} budget (${percent}% of the original)\n` +
    (stats.contextTokens === null ? "" : `window now  ${stats.contextTokens} tokens (last reply's usage)\n`) +
    "layers\n" +
    layer("aggregate", stats.layers.aggregate) +
    layer("summarised", stats.layers.summarized) +
    layer("recent", stats.layers.recent) +
    `summaries   ${stats.summaries.stored} stored${providers === "" ? "" : ` (${providers})`}\n`
  );
}
