// Builds the context state (schema.ts) from transcript entries, one entry at a time, so a
// caller can stream a file through it in bounded memory. The conversation and the context size restart at
// every compaction boundary; the task list, plan, decisions, files and tool counts carry across the input.
// Over 300 lines: one builder whose parts share the entry loop; the tool effects and the statement wording
// live in activity.ts and statements.ts.

import {
  type AssistantEntry,
  contextTokensOf,
  isCompactBoundary,
  isMainChain,
  isSkipped,
  type ParsedLine,
  SKIP_REASONS,
  type SystemEntry,
  type TranscriptEntry,
  titleOf,
  type UserEntry,
} from "../transcript/entries.ts";
import { contentBlocks, entryText, toolResultsOf, toolUsesOf, truncateText } from "../transcript/text.ts";
import {
  type Activity,
  applyToolUse,
  createActivity,
  type PendingToolUse,
  recordToolCall,
  recordToolFailure,
} from "./activity.ts";
import {
  CONTEXT_STATE_LIMITS,
  CONTEXT_STATE_VERSION,
  type Compaction,
  type ContextState,
  type ConversationMessage,
  type SkippedCounts,
  type Statement,
} from "./schema.ts";
import { addStatement, answersOfQuestion, findStatements, userMessagesInCompactSummary } from "./statements.ts";

export * from "./schema.ts";

export interface ExtractOptions {
  sessionId: string;
  projectRoot: string;
  transcriptPath: string;
  now: Date;
}

export interface ContextStateBuilder {
  add(line: ParsedLine): void;
  /** The state of everything added so far. Calls without a result yet count as done (see activity). */
  build(): ContextState;
}

export function extractContextState(lines: Iterable<ParsedLine>, options: ExtractOptions): ContextState {
  const builder = createContextStateBuilder(options);
  for (const line of lines) builder.add(line);
  return builder.build();
}

interface DraftMessage extends ConversationMessage {
  /** Assistant replies arrive one content block per line: the lines of one API message share this id. */
  messageId: string | null;
}

/** Calls waiting for their result; past this many the oldest is taken as done (its result never came). */
const MAX_PENDING_TOOL_USES = 2_000;
const TITLE_RANK: Record<string, number> = { summary: 1, "ai-title": 2, "custom-title": 3 };
/** Text Claude Code writes into user entries itself: not the person's words. */
const HARNESS_TEXT =
  /^\s*(<(task-notification|local-command-stdout|local-command-stderr|local-command-caveat|bash-notification|system-reminder|command-name|command-message|command-args)>|\[Request interrupted)/;

export function createContextStateBuilder(options: ExtractOptions): ContextStateBuilder {
  const activity: Activity = createActivity(options.projectRoot);
  const pending = new Map<string, PendingToolUse>();
  const skipped = Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as SkippedCounts;
  const decisions: Statement[] = [];
  const preferences: Statement[] = [];

  let conversation: DraftMessage[] = [];
  let conversationChars = 0;
  let conversationOmitted = 0;
  let byMessageId = new Map<string, DraftMessage>();
  let lastAssistantMessageId: string | null = null;
  let contextTokens: number | null = null;

  let title: string | null = null;
  let titleRank = 0;
  let firstTimestamp: string | null = null;
  let lastTimestamp: string | null = null;
  let userMessages = 0;
  let assistantMessages = 0;
  let compactions = 0;
  let lastCompaction: Compaction | null = null;
  let model: string | null = null;
  let cwd: string | null = null;
  let gitBranch: string | null = null;
  let claudeCodeVersion: string | null = null;

  function noteEnvelope(entry: UserEntry | AssistantEntry | SystemEntry, main: boolean): void {
    const at = entry.timestamp;
    if (at !== undefined) {
      if (firstTimestamp === null || at < firstTimestamp) firstTimestamp = at;
      if (lastTimestamp === null || at > lastTimestamp) lastTimestamp = at;
    }
    if (!main) return;
    cwd = entry.cwd || cwd;
    gitBranch = entry.gitBranch || gitBranch;
    claudeCodeVersion = entry.version || claudeCodeVersion;
  }

  function addStatementFound(kind: "decision" | "preference", statement: Statement): void {
    addStatement(kind === "decision" ? decisions : preferences, statement);
  }

  function appendMessage(message: DraftMessage): void {
    conversation.push(message);
    conversationChars += message.text.length;
    if (message.messageId !== null) byMessageId.set(message.messageId, message);
    // Keep memory bounded while streaming; build() trims to the exact budget.
    if (conversationChars > 2 * CONTEXT_STATE_LIMITS.conversationChars) trimConversation();
  }

  function trimConversation(): void {
    const budget = CONTEXT_STATE_LIMITS.conversationChars;
    const pinned = conversation[0]?.kind === "compact-summary" ? conversation[0] : null;
    let used = pinned?.text.length ?? 0;
    let keepFrom = conversation.length;
    while (keepFrom > (pinned === null ? 0 : 1)) {
      const candidate = conversation[keepFrom - 1];
      if (candidate === undefined || used + candidate.text.length > budget) break;
      used += candidate.text.length;
      keepFrom -= 1;
    }
    const start = pinned === null ? 0 : 1;
    const dropped = conversation.slice(start, keepFrom);
    if (dropped.length === 0) return;
    for (const message of dropped) if (message.messageId !== null) byMessageId.delete(message.messageId);
    conversationOmitted += dropped.filter((message) => message.text !== "").length;
    conversation = [...(pinned === null ? [] : [pinned]), ...conversation.slice(keepFrom)];
    conversationChars = used;
  }

  function onCompactBoundary(entry: SystemEntry): void {
    const metadata = entry.compactMetadata;
    compactions += 1;
    lastCompaction = {
      trigger: metadata?.trigger ?? null,
      preTokens: wholeOrNull(metadata?.preTokens),
      postTokens: wholeOrNull(metadata?.postTokens),
      timestamp: entry.timestamp ?? null,
    };
    conversation = [];
    conversationChars = 0;
    conversationOmitted = 0;
    byMessageId = new Map();
    lastAssistantMessageId = null;
    contextTokens = lastCompaction.postTokens;
  }

  function onToolResults(entry: UserEntry, main: boolean): void {
    for (const result of toolResultsOf(entry)) {
      const use = result.toolUseId === null ? undefined : pending.get(result.toolUseId);
      if (result.toolUseId !== null) pending.delete(result.toolUseId);
      const timestamp = entry.timestamp ?? null;
      if (result.isError) recordToolFailure(activity, use?.name ?? "unknown", result.text, timestamp);
      if (use === undefined) continue;
      applyToolUse(activity, use, {
        isError: result.isError,
        text: result.text,
        toolUseResult: entry.toolUseResult,
        timestamp,
      });
      if (use.name === "AskUserQuestion" && main && !result.isError) {
        for (const answer of answersOfQuestion(entry.toolUseResult, result.text)) {
          addStatementFound("decision", statement(answer, "user", "answer", entry));
        }
      }
    }
  }

  function onUser(entry: UserEntry): void {
    const main = isMainChain(entry);
    noteEnvelope(entry, main);
    onToolResults(entry, main);
    if (!main || entry.isMeta === true) return;
    if (entry.isCompactSummary === true) {
      const text = entryText(entry);
      appendMessage(draft(entry, "compact-summary", truncateText(text, CONTEXT_STATE_LIMITS.compactSummaryChars)));
      for (const message of userMessagesInCompactSummary(text)) {
        for (const found of findStatements(message, "user")) {
          addStatementFound(found.kind, statement(found.text, "user", "compact-summary", entry));
        }
      }
      return;
    }
    const hasResults = contentBlocks(entry).some((block) => block.type === "tool_result");
    const text = truncateText(entryText(entry), CONTEXT_STATE_LIMITS.messageChars);
    if (hasResults) {
      appendMessage(draft(entry, "tool-result", text));
      return;
    }
    if (HARNESS_TEXT.test(text)) {
      appendMessage(draft(entry, "notice", text));
      return;
    }
    appendMessage(draft(entry, "prompt", text));
    userMessages += 1;
    for (const found of findStatements(text, "user")) {
      addStatementFound(found.kind, statement(found.text, "user", "prompt", entry));
    }
  }

  function onAssistant(entry: AssistantEntry): void {
    const main = isMainChain(entry);
    noteEnvelope(entry, main);
    for (const use of toolUsesOf(entry)) {
      recordToolCall(activity, use.name);
      const waiting: PendingToolUse = {
        name: use.name,
        input: use.input,
        timestamp: entry.timestamp ?? null,
        mainChain: main,
      };
      if (use.id === null) applyToolUse(activity, waiting, null);
      else rememberPending(use.id, waiting);
    }
    if (!main) return;
    model = entry.message.model ?? model;
    const tokens = contextTokensOf(entry.message.usage);
    if (tokens !== null) contextTokens = tokens;
    mergeReply(entry);
    for (const block of contentBlocks(entry)) {
      if (block.type !== "text" || block.text === undefined) continue;
      for (const found of findStatements(block.text, "assistant")) {
        addStatementFound(found.kind, statement(found.text, "assistant", "reply", entry));
      }
    }
  }

  function rememberPending(id: string, use: PendingToolUse): void {
    pending.set(id, use);
    if (pending.size <= MAX_PENDING_TOOL_USES) return;
    const oldest = pending.entries().next();
    if (oldest.done === true) return;
    pending.delete(oldest.value[0]);
    applyToolUse(activity, oldest.value[1], null);
  }

  function mergeReply(entry: AssistantEntry): void {
    const messageId = entry.message.id ?? null;
    const text = entryText(entry);
    const output = wholeOrNull(entry.message.usage?.output_tokens);
    const existing = messageId === null ? undefined : byMessageId.get(messageId);
    if (existing === undefined) {
      if (messageId === null || messageId !== lastAssistantMessageId) assistantMessages += 1;
      lastAssistantMessageId = messageId;
      appendMessage({
        ...draft(entry, "reply", truncateText(text, CONTEXT_STATE_LIMITS.messageChars)),
        messageId,
        tokens: output,
      });
      return;
    }
    // output_tokens is final only on the message's last line: the largest value seen is the real count.
    if (output !== null && (existing.tokens === null || output > existing.tokens)) existing.tokens = output;
    if (text === "") return;
    const merged = truncateText(
      existing.text === "" ? text : `${existing.text}\n${text}`,
      CONTEXT_STATE_LIMITS.messageChars,
    );
    conversationChars += merged.length - existing.text.length;
    existing.text = merged;
  }

  function add(line: ParsedLine): void {
    if (isSkipped(line)) {
      skipped[line.skipped] += 1;
      return;
    }
    onEntry(line);
  }

  function onEntry(entry: TranscriptEntry): void {
    switch (entry.type) {
      case "user":
        onUser(entry);
        return;
      case "assistant":
        onAssistant(entry);
        return;
      case "system":
        noteEnvelope(entry, isMainChain(entry));
        if (isCompactBoundary(entry) && isMainChain(entry)) onCompactBoundary(entry);
        return;
      default: {
        const found = titleOf(entry);
        const rank = TITLE_RANK[entry.type] ?? 0;
        if (found !== null && rank >= titleRank) {
          title = found;
          titleRank = rank;
        }
      }
    }
  }

  function build(): ContextState {
    for (const use of pending.values()) applyToolUse(activity, use, null);
    pending.clear();
    conversation = conversation.filter((message) => message.text !== "");
    conversationChars = conversation.reduce((sum, message) => sum + message.text.length, 0);
    if (conversationChars > CONTEXT_STATE_LIMITS.conversationChars) trimConversation();
    return {
      version: CONTEXT_STATE_VERSION,
      sessionId: options.sessionId,
      projectRoot: options.projectRoot,
      transcriptPath: options.transcriptPath,
      extractedAt: options.now.toISOString(),
      conversation: conversation.map(({ messageId: _id, ...message }) => ({ ...message })),
      conversationOmitted,
      contextTokens,
      todos:
        activity.todos === null
          ? null
          : { ...activity.todos, items: activity.todos.items.map((item) => ({ ...item })) },
      plan: activity.plan === null ? null : { ...activity.plan },
      decisions: decisions.map((item) => ({ ...item })),
      preferences: preferences.map((item) => ({ ...item })),
      files: [...activity.files.values()].map((file) => ({ ...file })),
      tools: {
        calls: Object.fromEntries(activity.calls),
        total: activity.totalCalls,
        failures: activity.failures.map((failure) => ({ ...failure })),
      },
      session: {
        id: options.sessionId,
        title,
        firstTimestamp,
        lastTimestamp,
        userMessages,
        assistantMessages,
        compactions,
        lastCompaction,
        model,
        cwd,
        gitBranch,
        claudeCodeVersion,
      },
      skipped: { ...skipped },
    };
  }

  return { add, build };
}

function draft(entry: UserEntry | AssistantEntry, kind: ConversationMessage["kind"], text: string): DraftMessage {
  return {
    uuid: entry.uuid,
    role: entry.type,
    kind,
    text,
    timestamp: entry.timestamp ?? null,
    tokens: null,
    messageId: null,
  };
}

function statement(
  text: string,
  by: Statement["by"],
  source: Statement["source"],
  entry: UserEntry | AssistantEntry,
): Statement {
  return { text, by, source, uuid: entry.uuid, timestamp: entry.timestamp ?? null };
}

function wholeOrNull(value: number | null | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.round(value) : null;
}
