// The sidecar of one session's summaries (`.ctx/summaries/<session-id>.ctx`), keyed by message uuid, and the
// pure rules for which messages need a (new) summary: absent, made from a different text, made by an older
// extractive algorithm, or at or after `--from`.
import * as z from "zod/mini";
import { EXTRACTIVE_ALGORITHM } from "./extractive.ts";
import type { SummaryMessage } from "./messages.ts";

export const SIDECAR_VERSION = 1;

export const SummaryProviderNameSchema = z.enum(["extractive", "claude-cli", "anthropic"]);
export type SummaryProviderName = z.infer<typeof SummaryProviderNameSchema>;

export const SummaryRecordSchema = z.object({
  summary: z.string(),
  provider: SummaryProviderNameSchema,
  /** The LLM's model; null for extractive. */
  model: z.nullable(z.string()),
  createdAt: z.string(),
  /** Which algorithm (and prompt) version made it: `extractive-1`, `llm-batch-1`. */
  algorithm: z.string(),
  /** Length of the (redacted) message text it summarises: a changed message is summarised again. */
  sourceChars: z.int(),
});
export type SummaryRecord = z.infer<typeof SummaryRecordSchema>;

export const SidecarSchema = z.object({
  version: z.literal(SIDECAR_VERSION),
  sessionId: z.string(),
  entries: z.record(z.string(), SummaryRecordSchema),
});
export type Sidecar = z.infer<typeof SidecarSchema>;

/**
 * Indexes of the messages to summarise now. `fromIndex`: regenerate everything from there on. When an LLM
 * provider is wanted, extractive summaries (made lazily, or as a fallback when the cap was reached) are
 * upgraded.
 */
export function messagesToSummarize(
  messages: readonly SummaryMessage[],
  sidecar: Sidecar | null,
  options: { fromIndex: number | null; provider: SummaryProviderName },
): number[] {
  const { fromIndex, provider } = options;
  const wanted: number[] = [];
  for (const [index, message] of messages.entries()) {
    const record = sidecar?.entries[message.uuid];
    const stale =
      record === undefined ||
      record.sourceChars !== message.text.length ||
      (record.provider === "extractive" && (record.algorithm !== EXTRACTIVE_ALGORITHM || provider !== "extractive"));
    if (stale || (fromIndex !== null && index >= fromIndex)) wanted.push(index);
  }
  return wanted;
}
