// The Claude Code transcript line model (docs/claude-code-facts.md "Transcripts"): the entry types ctx reads, as loose
// schemas (Claude Code adds fields between versions and unknown ones must pass), and a parser that never
// throws. Everything else is skipped with a reason, so callers can count what they did not understand.
import * as z from "zod/mini";
import { type CompiledSchema, compileSchema, INVALID } from "../schema/compile.ts";

export const UsageSchema = z.looseObject({
  input_tokens: z.optional(z.nullable(z.number())),
  cache_creation_input_tokens: z.optional(z.nullable(z.number())),
  cache_read_input_tokens: z.optional(z.nullable(z.number())),
  output_tokens: z.optional(z.nullable(z.number())),
});
export type Usage = z.infer<typeof UsageSchema>;

/** One schema for every block type (text, thinking, tool_use, tool_result, image, …): only the fields ctx reads. */
export const ContentBlockSchema = z.looseObject({
  type: z.string(),
  text: z.optional(z.string()),
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  input: z.optional(z.unknown()),
  tool_use_id: z.optional(z.string()),
  content: z.optional(z.unknown()),
  is_error: z.optional(z.nullable(z.boolean())),
});
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

const ContentSchema = z.union([z.string(), z.array(ContentBlockSchema)]);

/** The envelope shared by conversation entries. */
const EnvelopeShape = {
  uuid: z.string(),
  parentUuid: z.optional(z.nullable(z.string())),
  sessionId: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  isSidechain: z.optional(z.boolean()),
  cwd: z.optional(z.string()),
  gitBranch: z.optional(z.string()),
  version: z.optional(z.string()),
  agentId: z.optional(z.string()),
};

export const UserEntrySchema = z.looseObject({
  ...EnvelopeShape,
  type: z.literal("user"),
  message: z.looseObject({ role: z.optional(z.string()), content: ContentSchema }),
  isMeta: z.optional(z.boolean()),
  isCompactSummary: z.optional(z.boolean()),
  isVisibleInTranscriptOnly: z.optional(z.boolean()),
  /** Structured tool output (Read/Edit/AskUserQuestion/ExitPlanMode/Task… shapes differ by tool). */
  toolUseResult: z.optional(z.unknown()),
});
export type UserEntry = z.infer<typeof UserEntrySchema>;

export const AssistantEntrySchema = z.looseObject({
  ...EnvelopeShape,
  type: z.literal("assistant"),
  message: z.looseObject({
    id: z.optional(z.string()),
    model: z.optional(z.string()),
    role: z.optional(z.string()),
    content: ContentSchema,
    stop_reason: z.optional(z.nullable(z.string())),
    usage: z.optional(z.nullable(UsageSchema)),
  }),
  requestId: z.optional(z.string()),
  isApiErrorMessage: z.optional(z.boolean()),
});
export type AssistantEntry = z.infer<typeof AssistantEntrySchema>;

export const CompactMetadataSchema = z.looseObject({
  trigger: z.optional(z.string()),
  preTokens: z.optional(z.nullable(z.number())),
  postTokens: z.optional(z.nullable(z.number())),
});
export type CompactMetadata = z.infer<typeof CompactMetadataSchema>;

export const SystemEntrySchema = z.looseObject({
  ...EnvelopeShape,
  uuid: z.optional(z.string()),
  type: z.literal("system"),
  subtype: z.optional(z.string()),
  content: z.optional(z.unknown()),
  logicalParentUuid: z.optional(z.nullable(z.string())),
  compactMetadata: z.optional(CompactMetadataSchema),
});
export type SystemEntry = z.infer<typeof SystemEntrySchema>;

/** A session title record; older versions put one at the top of the file. No uuid, no sessionId. */
export const SummaryEntrySchema = z.looseObject({
  type: z.literal("summary"),
  summary: z.string(),
  leafUuid: z.optional(z.string()),
});
export type SummaryEntry = z.infer<typeof SummaryEntrySchema>;

/** `/rename` (custom-title) and generated (ai-title) session titles, written by newer versions. */
export const TitleEntrySchema = z.looseObject({
  type: z.union([z.literal("custom-title"), z.literal("ai-title")]),
  customTitle: z.optional(z.string()),
  aiTitle: z.optional(z.string()),
  sessionId: z.optional(z.string()),
});
export type TitleEntry = z.infer<typeof TitleEntrySchema>;

export type TranscriptEntry = UserEntry | AssistantEntry | SystemEntry | SummaryEntry | TitleEntry;

/**
 * Why a line gave no entry. `meta`: a known bookkeeping record ctx does not use (progress, file-history-snapshot,
 * queue-operation, …). `too-long` and `truncated` come from the reader: a line over its size cap, and an
 * unterminated last line that does not parse yet (a transcript being written).
 */
export const SKIP_REASONS = ["malformed", "unknown-type", "meta", "too-long", "truncated"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export interface SkippedLine {
  skipped: SkipReason;
}
export type ParsedLine = TranscriptEntry | SkippedLine;

const META_TYPES = new Set([
  "progress",
  "file-history-snapshot",
  "queue-operation",
  "last-prompt",
  "permission-mode",
  "attachment",
  "mode",
  "cost-state",
  "agent-name",
  "tag",
  "pr-link",
]);

/** The line schemas by entry type (core/schema/compile.test.ts compares their compiled validators with them). */
export const LINE_SCHEMAS = {
  user: UserEntrySchema,
  assistant: AssistantEntrySchema,
  system: SystemEntrySchema,
  summary: SummaryEntrySchema,
  "custom-title": TitleEntrySchema,
  "ai-title": TitleEntrySchema,
} as const;

/** The schemas compiled to plain validators (core/schema/compile.ts: same verdict, same value, a fraction of the cost). */
const COMPILED: Partial<Record<keyof typeof LINE_SCHEMAS, CompiledSchema | null>> = {};

function compiled(type: keyof typeof LINE_SCHEMAS): CompiledSchema | null {
  let validator = COMPILED[type];
  if (validator === undefined) {
    validator = compileSchema(LINE_SCHEMAS[type]);
    COMPILED[type] = validator;
  }
  return validator;
}

/** Parses one JSONL line. Never throws: a line that is not an entry comes back as `{ skipped: reason }`. */
export function parseTranscriptLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { skipped: "malformed" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { skipped: "malformed" };
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") return { skipped: "malformed" };
  if (Object.hasOwn(LINE_SCHEMAS, type)) {
    const validator = compiled(type as keyof typeof LINE_SCHEMAS);
    if (validator !== null) {
      const parsed = validator(value);
      return parsed === INVALID ? { skipped: "malformed" } : (parsed as TranscriptEntry);
    }
    const parsed = LINE_SCHEMAS[type as keyof typeof LINE_SCHEMAS].safeParse(value);
    return parsed.success ? parsed.data : { skipped: "malformed" };
  }
  return { skipped: META_TYPES.has(type) ? "meta" : "unknown-type" };
}

export function isSkipped(line: ParsedLine): line is SkippedLine {
  return "skipped" in line;
}

/** A conversation message on the main chain: not a subagent's sidechain, not an API error, not synthetic. */
export function isMainChain(entry: TranscriptEntry): boolean {
  if (entry.type === "user") return entry.isSidechain !== true;
  if (entry.type === "assistant") {
    return entry.isSidechain !== true && entry.isApiErrorMessage !== true && entry.message.model !== "<synthetic>";
  }
  if (entry.type === "system") return entry.isSidechain !== true;
  return true;
}

/** The summary Claude Code injects after a compaction ("This session is being continued…"). */
export function isCompactSummary(entry: TranscriptEntry): entry is UserEntry {
  return entry.type === "user" && entry.isCompactSummary === true;
}

/** System-injected user text: skill bodies, `<local-command-caveat>`, hook reminders. */
export function isMeta(entry: TranscriptEntry): boolean {
  return entry.type === "user" && entry.isMeta === true;
}

export function isCompactBoundary(entry: TranscriptEntry): entry is SystemEntry {
  return entry.type === "system" && entry.subtype === "compact_boundary";
}

/** The context this reply was computed over: input + cache creation + cache read (output excluded). */
export function contextTokensOf(usage: Usage | null | undefined): number | null {
  if (usage === null || usage === undefined) return null;
  const parts = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens];
  if (parts.every((part) => part === null || part === undefined)) return null;
  return parts.reduce<number>((sum, part) => sum + (part ?? 0), 0);
}

/** The newest title a title record carries (custom before generated), or null. */
export function titleOf(entry: TranscriptEntry): string | null {
  if (entry.type === "summary") return entry.summary.trim() || null;
  if (entry.type === "custom-title") return entry.customTitle?.trim() || null;
  if (entry.type === "ai-title") return entry.aiTitle?.trim() || null;
  return null;
}
