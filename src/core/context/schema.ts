// The context state: what ctx knows about a session's working context, extracted from its transcript, and
// what `.ctx/state.ctx` holds. Every list is bounded (see the limits) so a huge session still gives a
// small state. Fields are nullable rather than optional: the state travels as msgpack.
import * as z from "zod/mini";
import { SKIP_REASONS } from "../transcript/entries.ts";

export const CONTEXT_STATE_VERSION = 1;

/** Bounds that keep a state from a 100 MB transcript far below 10 MB (a few hundred KB at most). */
export const CONTEXT_STATE_LIMITS = {
  /** Total characters of conversation text kept; the newest messages win (the compact summary is kept first). */
  conversationChars: 200_000,
  messageChars: 8_000,
  compactSummaryChars: 40_000,
  statements: 50,
  statementChars: 240,
  files: 500,
  toolNames: 200,
  toolFailures: 10,
  toolFailureChars: 200,
  todos: 100,
  todoChars: 500,
  planChars: 20_000,
} as const;

export const ConversationMessageSchema = z.object({
  uuid: z.string(),
  role: z.enum(["user", "assistant"]),
  /**
   * prompt: the person's words; reply: the assistant's text and tool-call gists; tool-result: trimmed output;
   * notice: text Claude Code itself wrote as the user (interruptions, task notifications, command output).
   */
  kind: z.enum(["prompt", "reply", "tool-result", "notice", "compact-summary"]),
  text: z.string(),
  timestamp: z.nullable(z.string()),
  /** Real output tokens of an assistant reply from its usage; null where the transcript gives none. */
  tokens: z.nullable(z.int()),
});
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;

export const TodoItemSchema = z.object({
  /** The Task* tools' id; null for TodoWrite items, which have none. */
  id: z.nullable(z.string()),
  content: z.string(),
  /** pending | in_progress | completed as Claude Code writes it; kept verbatim. */
  status: z.string(),
  activeForm: z.nullable(z.string()),
});
export type TodoItem = z.infer<typeof TodoItemSchema>;

export const TodoListSchema = z.object({
  source: z.enum(["TodoWrite", "Task"]),
  updatedAt: z.nullable(z.string()),
  items: z.array(TodoItemSchema),
});
export type TodoList = z.infer<typeof TodoListSchema>;

export const PlanSchema = z.object({
  /** ExitPlanMode's `input.plan` (older versions) or its result's `plan`; null when only a file holds it. */
  text: z.nullable(z.string()),
  /** Newer versions keep the plan in `~/.claude/plans/<slug>.md` and name it in the result. */
  filePath: z.nullable(z.string()),
  proposedAt: z.nullable(z.string()),
  /** true: the person approved it; false: rejected; null: no answer in the transcript yet. */
  approved: z.nullable(z.boolean()),
});
export type Plan = z.infer<typeof PlanSchema>;

export const StatementSchema = z.object({
  text: z.string(),
  by: z.enum(["user", "assistant"]),
  /** prompt / reply: a sentence of the conversation; answer: the person's answer to AskUserQuestion. */
  source: z.enum(["prompt", "reply", "answer", "compact-summary"]),
  uuid: z.nullable(z.string()),
  timestamp: z.nullable(z.string()),
});
export type Statement = z.infer<typeof StatementSchema>;

export const FileAccessSchema = z.object({
  path: z.string(),
  /** Inside the project root (the files `ctx_diff` can compare). */
  inProject: z.boolean(),
  reads: z.int(),
  writes: z.int(),
  lastAccess: z.nullable(z.string()),
  lastAction: z.enum(["read", "write", "edit"]),
  /** Filled by the shell that hashes the file on disk; extraction leaves it null. */
  contentHash: z.nullable(z.string()),
});
export type FileAccess = z.infer<typeof FileAccessSchema>;

export const ToolFailureSchema = z.object({
  tool: z.string(),
  message: z.string(),
  timestamp: z.nullable(z.string()),
});
export type ToolFailure = z.infer<typeof ToolFailureSchema>;

export const ToolStatsSchema = z.object({
  /** Calls per tool name (main chain and subagents); names past the limit are counted under `(other)`. */
  calls: z.record(z.string(), z.int()),
  total: z.int(),
  /** The newest failures (tool_result `is_error`), oldest first. */
  failures: z.array(ToolFailureSchema),
});
export type ToolStats = z.infer<typeof ToolStatsSchema>;

export const CompactionSchema = z.object({
  trigger: z.nullable(z.string()),
  preTokens: z.nullable(z.int()),
  postTokens: z.nullable(z.int()),
  timestamp: z.nullable(z.string()),
});
export type Compaction = z.infer<typeof CompactionSchema>;

export const SessionInfoSchema = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  firstTimestamp: z.nullable(z.string()),
  lastTimestamp: z.nullable(z.string()),
  /** Main-chain prompts the person typed (tool results and injected text not counted). */
  userMessages: z.int(),
  /** Main-chain assistant replies (one per API message, however many lines it was written as). */
  assistantMessages: z.int(),
  compactions: z.int(),
  lastCompaction: z.nullable(CompactionSchema),
  model: z.nullable(z.string()),
  cwd: z.nullable(z.string()),
  gitBranch: z.nullable(z.string()),
  claudeCodeVersion: z.nullable(z.string()),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const SkippedCountsSchema = z.record(z.enum(SKIP_REASONS), z.int());
export type SkippedCounts = z.infer<typeof SkippedCountsSchema>;

export const ContextStateSchema = z.object({
  version: z.literal(CONTEXT_STATE_VERSION),
  sessionId: z.string(),
  projectRoot: z.string(),
  transcriptPath: z.string(),
  extractedAt: z.string(),
  /** Main-chain messages since the last compaction boundary, oldest first, within the character budget. */
  conversation: z.array(ConversationMessageSchema),
  /** Messages since the boundary left out of `conversation` by the budget (the oldest ones). */
  conversationOmitted: z.int(),
  /** input + cache_creation + cache_read of the last main-chain reply since the boundary, else its postTokens. */
  contextTokens: z.nullable(z.int()),
  todos: z.nullable(TodoListSchema),
  plan: z.nullable(PlanSchema),
  decisions: z.array(StatementSchema),
  preferences: z.array(StatementSchema),
  /** Most recently accessed last. */
  files: z.array(FileAccessSchema),
  tools: ToolStatsSchema,
  session: SessionInfoSchema,
  skipped: SkippedCountsSchema,
});
export type ContextState = z.infer<typeof ContextStateSchema>;

/** What a state holds, counted: the `counts` of the save, checkpoint and restore results (CLI and MCP alike). */
export const StateCountsSchema = z.object({
  todos: z.int(),
  files: z.int(),
  decisions: z.int(),
  preferences: z.int(),
  conversationMessages: z.int(),
  toolCalls: z.int(),
});
export type StateCounts = z.infer<typeof StateCountsSchema>;

export function countState(state: ContextState): StateCounts {
  return {
    todos: state.todos?.items.length ?? 0,
    files: state.files.length,
    decisions: state.decisions.length,
    preferences: state.preferences.length,
    conversationMessages: state.conversation.length,
    toolCalls: state.tools.total,
  };
}
