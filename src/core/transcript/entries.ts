// The Claude Code transcript line model (docs/claude-code-facts.md "Transcripts"): the entry types ctx reads (their
// loose schemas are ./entry-schemas.ts; each line is checked with the checker compiled from its type's schema, so
// reading a transcript loads no zod), and a parser that never throws. Everything else is skipped with a reason, so
// callers can count what they did not understand.
import type { SchemaCheck } from "../schema/compile.ts";
import {
  checkAssistantEntry,
  checkSummaryEntry,
  checkSystemEntry,
  checkTitleEntry,
  checkUserEntry,
} from "./entry-schemas.compiled.ts";
import type { AssistantEntry, SummaryEntry, SystemEntry, TitleEntry, Usage, UserEntry } from "./entry-schemas.ts";

export type {
  AssistantEntry,
  CompactMetadata,
  ContentBlock,
  SummaryEntry,
  SystemEntry,
  TitleEntry,
  Usage,
  UserEntry,
} from "./entry-schemas.ts";

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

/** Each entry type's checker, compiled from its schema (./entry-schemas.ts LINE_SCHEMAS). */
export const LINE_CHECKERS: Record<string, (value: unknown) => SchemaCheck<TranscriptEntry>> = {
  user: checkUserEntry,
  assistant: checkAssistantEntry,
  system: checkSystemEntry,
  summary: checkSummaryEntry,
  "custom-title": checkTitleEntry,
  "ai-title": checkTitleEntry,
};

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
  if (Object.hasOwn(LINE_CHECKERS, type)) {
    const checked = (LINE_CHECKERS[type] as (value: unknown) => SchemaCheck<TranscriptEntry>)(value);
    return checked.ok ? checked.value : { skipped: "malformed" };
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

/**
 * A transcript's `summary` records, sorted by the one rule ctx reads them with: a summary titles the session that
 * holds its leaf line (`leafUuid`). Claude Code writes most of them into another session's file: at the top of a new
 * session's, titles of earlier ones (of 616 in the coding split and the fixtures, 455 name a line of another
 * transcript, 155 one of no transcript there, 6 a line of their own file, each just after that line). Note each
 * conversation line's uuid and each summary as they are read; `own()` is, in file order, the summaries whose leaf was
 * read here, or that name none.
 */
export class SummaryRecords<T> {
  private readonly lineUuids = new Set<string>();
  private readonly records: { value: T; leafUuid: string | null }[] = [];

  noteLine(uuid: string | undefined): void {
    if (uuid !== undefined) this.lineUuids.add(uuid);
  }

  noteSummary(entry: SummaryEntry, value: T): void {
    this.records.push({ value, leafUuid: entry.leafUuid ?? null });
  }

  own(): T[] {
    return this.records.filter((record) => this.isOwn(record.leafUuid)).map((record) => record.value);
  }

  /** The summaries of other sessions, in file order. */
  others(): T[] {
    return this.records.filter((record) => !this.isOwn(record.leafUuid)).map((record) => record.value);
  }

  private isOwn(leafUuid: string | null): boolean {
    return leafUuid === null || this.lineUuids.has(leafUuid);
  }
}
