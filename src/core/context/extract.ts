// Builds the context state (schema.ts) from transcript entries, one entry at a time, so a
// caller can stream a file through it in bounded memory. The conversation and the context size restart at
// every compaction boundary; the task list, plan, decisions, files and tool counts carry across the input.
// The conversation window is conversation-window.ts, the tool effects activity.ts, the statement wording
// statements.ts.

import {
  type AssistantEntry,
  contextTokensOf,
  isCompactBoundary,
  isMainChain,
  isSkipped,
  type ParsedLine,
  SKIP_REASONS,
  SummaryRecords,
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
import { ConversationWindow, draftMessage } from "./conversation-window.ts";
import {
  CONTEXT_STATE_LIMITS,
  CONTEXT_STATE_VERSION,
  type Compaction,
  type ContextState,
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

export function extractContextState(lines: Iterable<ParsedLine>, options: ExtractOptions): ContextState {
  const builder = new ContextStateBuilder(options);
  for (const line of lines) builder.add(line);
  return builder.build();
}

/** Calls waiting for their result; past this many the oldest is taken as done (its result never came). */
const MAX_PENDING_TOOL_USES = 2_000;
const TITLE_RANK: Record<string, number> = { "ai-title": 2, "custom-title": 3 };
/** Text Claude Code writes into user entries itself: not the person's words. */
const HARNESS_TEXT =
  /^\s*(<(task-notification|local-command-stdout|local-command-stderr|local-command-caveat|bash-notification|system-reminder|command-name|command-message|command-args)>|\[Request interrupted)/;

/** The context state of the entries added so far: `add` each line in order, then `build`. */
export class ContextStateBuilder {
  private readonly options: ExtractOptions;
  private readonly activity: Activity;
  private readonly pending = new Map<string, PendingToolUse>();
  private readonly skipped = Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as SkippedCounts;
  private readonly decisions: Statement[] = [];
  private readonly preferences: Statement[] = [];
  private readonly conversation = new ConversationWindow();
  private contextTokens: number | null = null;

  private title: string | null = null;
  private titleRank = 0;
  /** Summary records: a title only when the line they name is this transcript's (SummaryRecords). */
  private readonly summaries = new SummaryRecords<string>();
  private firstTimestamp: string | null = null;
  private lastTimestamp: string | null = null;
  private userMessages = 0;
  private assistantMessages = 0;
  private compactions = 0;
  private lastCompaction: Compaction | null = null;
  private model: string | null = null;
  private cwd: string | null = null;
  private gitBranch: string | null = null;
  private claudeCodeVersion: string | null = null;

  constructor(options: ExtractOptions) {
    this.options = options;
    this.activity = createActivity(options.projectRoot);
  }

  add(line: ParsedLine): void {
    if (isSkipped(line)) {
      this.skipped[line.skipped] += 1;
      return;
    }
    switch (line.type) {
      case "user":
        this.onUser(line);
        return;
      case "assistant":
        this.onAssistant(line);
        return;
      case "system":
        this.noteEnvelope(line, isMainChain(line));
        if (isCompactBoundary(line) && isMainChain(line)) this.onCompactBoundary(line);
        return;
      default:
        this.onTitle(line);
    }
  }

  /** The state of everything added so far. Calls without a result yet count as done (see activity). */
  build(): ContextState {
    const { activity, options } = this;
    for (const use of this.pending.values()) applyToolUse(activity, use, null);
    this.pending.clear();
    const conversation = this.conversation.finish();
    return {
      version: CONTEXT_STATE_VERSION,
      sessionId: options.sessionId,
      projectRoot: options.projectRoot,
      transcriptPath: options.transcriptPath,
      extractedAt: options.now.toISOString(),
      conversation,
      conversationOmitted: this.conversation.omitted,
      contextTokens: this.contextTokens,
      todos:
        activity.todos === null
          ? null
          : { ...activity.todos, items: activity.todos.items.map((item) => ({ ...item })) },
      plan: activity.plan === null ? null : { ...activity.plan },
      decisions: this.decisions.map((item) => ({ ...item })),
      preferences: this.preferences.map((item) => ({ ...item })),
      files: [...activity.files.values()].map((file) => ({ ...file })),
      tools: {
        calls: Object.fromEntries(activity.calls),
        total: activity.totalCalls,
        failures: activity.failures.map((failure) => ({ ...failure })),
      },
      session: {
        id: options.sessionId,
        title: this.title ?? this.summaries.own().at(-1) ?? null,
        firstTimestamp: this.firstTimestamp,
        lastTimestamp: this.lastTimestamp,
        userMessages: this.userMessages,
        assistantMessages: this.assistantMessages,
        compactions: this.compactions,
        lastCompaction: this.lastCompaction,
        model: this.model,
        cwd: this.cwd,
        gitBranch: this.gitBranch,
        claudeCodeVersion: this.claudeCodeVersion,
      },
      skipped: { ...this.skipped },
    };
  }

  private noteEnvelope(entry: UserEntry | AssistantEntry | SystemEntry, main: boolean): void {
    this.summaries.noteLine(entry.uuid);
    const at = entry.timestamp;
    if (at !== undefined) {
      if (this.firstTimestamp === null || at < this.firstTimestamp) this.firstTimestamp = at;
      if (this.lastTimestamp === null || at > this.lastTimestamp) this.lastTimestamp = at;
    }
    if (!main) return;
    this.cwd = entry.cwd || this.cwd;
    this.gitBranch = entry.gitBranch || this.gitBranch;
    this.claudeCodeVersion = entry.version || this.claudeCodeVersion;
  }

  private addStatementFound(kind: "decision" | "preference", found: Statement): void {
    addStatement(kind === "decision" ? this.decisions : this.preferences, found);
  }

  private onCompactBoundary(entry: SystemEntry): void {
    const metadata = entry.compactMetadata;
    this.compactions += 1;
    this.lastCompaction = {
      trigger: metadata?.trigger ?? null,
      preTokens: wholeOrNull(metadata?.preTokens),
      postTokens: wholeOrNull(metadata?.postTokens),
      timestamp: entry.timestamp ?? null,
    };
    this.conversation.restart();
    this.contextTokens = this.lastCompaction.postTokens;
  }

  private onToolResults(entry: UserEntry, main: boolean): void {
    for (const result of toolResultsOf(entry)) {
      const use = result.toolUseId === null ? undefined : this.pending.get(result.toolUseId);
      if (result.toolUseId !== null) this.pending.delete(result.toolUseId);
      const timestamp = entry.timestamp ?? null;
      if (result.isError) recordToolFailure(this.activity, use?.name ?? "unknown", result.text, timestamp);
      if (use === undefined) continue;
      applyToolUse(this.activity, use, {
        isError: result.isError,
        text: result.text,
        toolUseResult: entry.toolUseResult,
        timestamp,
      });
      if (use.name === "AskUserQuestion" && main && !result.isError) {
        for (const answer of answersOfQuestion(entry.toolUseResult, result.text)) {
          this.addStatementFound("decision", statement(answer, "user", "answer", entry));
        }
      }
    }
  }

  private onUser(entry: UserEntry): void {
    const main = isMainChain(entry);
    this.noteEnvelope(entry, main);
    this.onToolResults(entry, main);
    if (!main || entry.isMeta === true) return;
    if (entry.isCompactSummary === true) {
      const text = entryText(entry);
      this.conversation.append(
        draftMessage(entry, "compact-summary", truncateText(text, CONTEXT_STATE_LIMITS.compactSummaryChars)),
      );
      for (const message of userMessagesInCompactSummary(text)) {
        for (const found of findStatements(message, "user")) {
          this.addStatementFound(found.kind, statement(found.text, "user", "compact-summary", entry));
        }
      }
      return;
    }
    const hasResults = contentBlocks(entry).some((block) => block.type === "tool_result");
    const text = truncateText(entryText(entry), CONTEXT_STATE_LIMITS.messageChars);
    if (hasResults) {
      this.conversation.append(draftMessage(entry, "tool-result", text));
      return;
    }
    if (HARNESS_TEXT.test(text)) {
      this.conversation.append(draftMessage(entry, "notice", text));
      return;
    }
    this.conversation.append(draftMessage(entry, "prompt", text));
    this.userMessages += 1;
    for (const found of findStatements(text, "user")) {
      this.addStatementFound(found.kind, statement(found.text, "user", "prompt", entry));
    }
  }

  private onAssistant(entry: AssistantEntry): void {
    const main = isMainChain(entry);
    this.noteEnvelope(entry, main);
    for (const use of toolUsesOf(entry)) {
      recordToolCall(this.activity, use.name);
      const waiting: PendingToolUse = {
        name: use.name,
        input: use.input,
        timestamp: entry.timestamp ?? null,
        mainChain: main,
      };
      if (use.id === null) applyToolUse(this.activity, waiting, null);
      else this.rememberPending(use.id, waiting);
    }
    if (!main) return;
    this.model = entry.message.model ?? this.model;
    const tokens = contextTokensOf(entry.message.usage);
    if (tokens !== null) this.contextTokens = tokens;
    if (this.conversation.addReply(entry, wholeOrNull(entry.message.usage?.output_tokens))) this.assistantMessages += 1;
    for (const block of contentBlocks(entry)) {
      if (block.type !== "text" || block.text === undefined) continue;
      for (const found of findStatements(block.text, "assistant")) {
        this.addStatementFound(found.kind, statement(found.text, "assistant", "reply", entry));
      }
    }
  }

  private rememberPending(id: string, use: PendingToolUse): void {
    this.pending.set(id, use);
    if (this.pending.size <= MAX_PENDING_TOOL_USES) return;
    const oldest = this.pending.entries().next();
    if (oldest.done === true) return;
    this.pending.delete(oldest.value[0]);
    applyToolUse(this.activity, oldest.value[1], null);
  }

  /** Title entries: the best-ranked title seen last wins, else the last summary record of this session's. */
  private onTitle(entry: TranscriptEntry): void {
    const found = titleOf(entry);
    if (entry.type === "summary") {
      if (found !== null) this.summaries.noteSummary(entry, found);
      return;
    }
    const rank = TITLE_RANK[entry.type] ?? 0;
    if (found !== null && rank >= this.titleRank) {
      this.title = found;
      this.titleRank = rank;
    }
  }
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
