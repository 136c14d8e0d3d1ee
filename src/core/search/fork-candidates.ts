// Turns ranked sessions into what /fork-detect shows: a percentage score with its parts, a relative date, a
// trimmed preview, whether the transcript still exists (Claude Code deletes transcripts after
// `cleanupPeriodDays`), and copy-paste fork commands that run from the session's own folder.
import * as z from "zod/mini";
import { type IndexedSession, type RankedSession, ScoreComponentsSchema } from "./model.ts";

const DAY_MS = 86_400_000;
/** Warn when a transcript is this close to Claude Code's cleanup sweep. */
const EXPIRY_WARNING_DAYS = 7;
const PREVIEW_CHARS = 280;

export const ForkCandidateSchema = z.object({
  rank: z.int(),
  sessionId: z.string(),
  /** 0..1; `scorePercent` is the same, rounded, for people. */
  score: z.number(),
  scorePercent: z.number(),
  components: ScoreComponentsSchema,
  project: z.string(),
  cwd: z.nullable(z.string()),
  updatedAt: z.string(),
  relativeDate: z.string(),
  topic: z.string(),
  preview: z.string(),
  messageCount: z.int(),
  matchedChunks: z.int(),
  transcriptPath: z.string(),
  transcriptExists: z.boolean(),
  /** Days until Claude Code's cleanup sweep may delete the transcript; null when it is already gone. */
  expiresInDays: z.nullable(z.number()),
  warning: z.nullable(z.string()),
  forkCommand: z.string(),
  inSessionCommand: z.string(),
});
export type ForkCandidate = z.infer<typeof ForkCandidateSchema>;

export interface ForkCandidateContext {
  now: number;
  cleanupPeriodDays: number;
  /** The transcript file's modification time (Claude Code's cleanup sweep goes by it); null when it is gone. */
  transcriptModifiedAt: (path: string) => number | null;
  /** ctx's transcript archive holds the session (`ctx archive restore` brings a deleted transcript back). */
  isArchived?: (sessionId: string) => boolean;
}

/** POSIX single-quoting: safe to paste into any sh-compatible shell whatever the folder's name holds. */
export function quoteForShell(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** "just now", "5 minutes ago", "3 hours ago", "yesterday", "12 days ago", "4 months ago", "2 years ago". */
export function describeAge(thenMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return plural(hours, "hour");
  const days = Math.floor(hours / 24);
  if (days === 1) return "yesterday";
  if (days < 60) return plural(days, "day");
  const months = Math.floor(days / 30.44);
  if (months < 24) return plural(months, "month");
  return plural(Math.floor(days / 365.25), "year");
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"} ago`;
}

/** One line of the chunk text, whitespace folded, cut at a word boundary. */
export function trimPreview(text: string, maxChars = PREVIEW_CHARS): string {
  const folded = text.replace(/\s+/g, " ").trim();
  if (folded.length <= maxChars) return folded;
  const cut = folded.slice(0, maxChars);
  const space = cut.lastIndexOf(" ");
  return `${(space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()} …`;
}

export function forkCommandFor(sessionId: string, cwd: string | null): string {
  const resume = `claude --resume ${sessionId} --fork-session`;
  return cwd === null || cwd === "" ? resume : `cd ${quoteForShell(cwd)} && ${resume}`;
}

/** The in-session route in current Claude Code: switch to the session, then continue in a copy of it. */
export function inSessionCommandFor(sessionId: string): string {
  return `/resume ${sessionId}, then /branch`;
}

export function toForkCandidate(ranked: RankedSession, rank: number, context: ForkCandidateContext): ForkCandidate {
  const { session } = ranked;
  const modifiedAt = context.transcriptModifiedAt(session.path);
  const exists = modifiedAt !== null;
  const expiresInDays =
    modifiedAt === null
      ? null
      : Math.max(0, Math.floor(context.cleanupPeriodDays - (context.now - modifiedAt) / DAY_MS));
  return {
    rank,
    sessionId: session.id,
    score: ranked.score,
    scorePercent: Math.round(ranked.score * 100),
    components: ranked.components,
    project: session.project,
    cwd: session.cwd,
    updatedAt: new Date(session.updatedAt).toISOString(),
    relativeDate: describeAge(session.updatedAt, context.now),
    topic: session.title === "" ? "(untitled session)" : trimPreview(session.title, 120),
    preview: trimPreview(ranked.bestChunk.text),
    messageCount: session.messageCount,
    matchedChunks: ranked.matchedChunks,
    transcriptPath: session.path,
    transcriptExists: exists,
    expiresInDays,
    ...archivedOrNot(session.id, session.cwd, exists, expiresInDays, context),
    inSessionCommand: inSessionCommandFor(session.id),
  };
}

/** A deleted transcript that ctx archived forks after `ctx archive restore` puts it back. */
function archivedOrNot(
  sessionId: string,
  cwd: string | null,
  exists: boolean,
  expiresInDays: number | null,
  context: ForkCandidateContext,
): { warning: string | null; forkCommand: string } {
  const fork = forkCommandFor(sessionId, cwd);
  if (!exists && context.isArchived?.(sessionId) === true) {
    return {
      warning: "Claude Code's cleanup deleted the transcript, but ctx archived it: the fork command restores it first",
      forkCommand: `ctx archive restore ${sessionId} && ${fork}`,
    };
  }
  return { warning: expiryWarning(exists, expiresInDays, context.cleanupPeriodDays), forkCommand: fork };
}

function expiryWarning(exists: boolean, expiresInDays: number | null, cleanupPeriodDays: number): string | null {
  if (!exists) {
    return "the transcript is gone (Claude Code's cleanup removed it or it was moved): this session cannot be resumed";
  }
  if (expiresInDays !== null && expiresInDays <= EXPIRY_WARNING_DAYS) {
    return `Claude Code deletes transcripts after ${cleanupPeriodDays} days: this one may be removed in ${expiresInDays} day(s); fork it soon or raise cleanupPeriodDays`;
  }
  return null;
}

/** The text the tool and `ctx search` show for a list of candidates. */
export function renderForkCandidates(query: string, candidates: readonly ForkCandidate[]): string {
  const lines = [`Sessions matching "${query}", best first:`];
  for (const candidate of candidates) {
    lines.push(
      "",
      `${candidate.rank}. ${candidate.topic}`,
      `   ${candidate.scorePercent}% match · ${candidate.relativeDate} · ${candidate.messageCount} messages · ${candidate.cwd ?? candidate.project}`,
      `   session ${candidate.sessionId}`,
      `   preview: ${candidate.preview}`,
    );
    if (candidate.warning !== null) lines.push(`   warning: ${candidate.warning}`);
    lines.push(`   fork: ${candidate.forkCommand}`, `   in Claude Code: ${candidate.inSessionCommand}`);
  }
  return lines.join("\n");
}

/** A recently active session, offered when nothing matches the query. */
export const RecentSessionSchema = z.object({
  sessionId: z.string(),
  topic: z.string(),
  project: z.string(),
  cwd: z.nullable(z.string()),
  relativeDate: z.string(),
  forkCommand: z.string(),
});
export type RecentSession = z.infer<typeof RecentSessionSchema>;

export function toRecentSession(session: IndexedSession, now: number): RecentSession {
  return {
    sessionId: session.id,
    topic: session.title === "" ? "(untitled session)" : trimPreview(session.title, 120),
    project: session.project,
    cwd: session.cwd,
    relativeDate: describeAge(session.updatedAt, now),
    forkCommand: forkCommandFor(session.id, session.cwd),
  };
}

/** What to say when nothing clears the threshold: the options the person has, and the latest sessions. */
export function renderNoMatch(
  query: string,
  closest: ForkCandidate | null,
  minPercent: number,
  recent: readonly RecentSession[] = [],
): string {
  const best =
    closest === null
      ? "nothing in the index matched"
      : `the closest, "${closest.topic}", reached ${Math.round(closest.components.bestSimilarity * 100)}% similarity`;
  return [
    `No past session matches "${query}" well enough (${best}; at least ${minPercent}% is needed).`,
    "Options: refine the query with words the session would contain (file names, error text, feature names),",
    "start fresh, or pick one of the most recent sessions below (run `ctx index` if sessions are missing).",
    ...recent.flatMap((session, i) => [
      `${i + 1}. ${session.topic} · ${session.relativeDate} · ${session.cwd ?? session.project}`,
      `   fork: ${session.forkCommand}`,
    ]),
  ].join("\n");
}
