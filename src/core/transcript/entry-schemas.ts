// The transcript entry types ctx reads, as loose schemas: Claude Code adds fields between versions and unknown ones
// must pass (docs/claude-code-facts.md "Transcripts"). ./entries.ts parses lines with the checkers compiled from
// them (./entry-schemas.compiled.ts, build/compile-schemas.ts), so reading a transcript loads no zod.
import * as z from "zod/mini";

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

/** The line schemas by entry type (core/schema/compile.test.ts compares their compiled validators with them). */
export const LINE_SCHEMAS = {
  user: UserEntrySchema,
  assistant: AssistantEntrySchema,
  system: SystemEntrySchema,
  summary: SummaryEntrySchema,
  "custom-title": TitleEntrySchema,
  "ai-title": TitleEntrySchema,
} as const;
