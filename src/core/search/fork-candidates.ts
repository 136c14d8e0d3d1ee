// Turns ranked sessions into what /fork-detect shows: a percentage score with its parts, a relative date, a
// trimmed preview, whether the transcript still exists (Claude Code deletes transcripts after
// `cleanupPeriodDays`), and copy-paste fork commands that run from the session's own folder.

import { describeAnnotation, type SessionAnnotation } from "../library/annotation.ts";
import { quoteShellWord, shellCommand } from "../shell/quote.ts";
import { isSessionId } from "../transcript/session-id.ts";
import type { ForkCandidate, RecentSession } from "./fork-candidate-schema.ts";
import type { IndexedSession, RankedSession } from "./model.ts";

export type { ForkCandidate, RecentSession };

const DAY_MS = 86_400_000;
/** Warn when a transcript is this close to Claude Code's cleanup sweep. */
const EXPIRY_WARNING_DAYS = 7;
const PREVIEW_CHARS = 280;

export interface ForkCandidateContext {
  now: number;
  cleanupPeriodDays: number;
  /** The transcript file's modification time (Claude Code's cleanup sweep goes by it); null when it is gone. */
  transcriptModifiedAt: (path: string) => number | null;
  /** ctx's transcript archive holds the session (`ctx archive restore` brings a deleted transcript back). */
  isArchived?: (sessionId: string) => boolean;
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

/**
 * `claude`'s arguments that fork a session: `--resume <id> --fork-session [--resume-session-at <uuid>]`. Claude
 * Code's `--resume` takes an optional value, so an id that is not a UUID (a transcript named `--x.jsonl`) is bound
 * to it as `--resume=<id>`: it can never be read as a flag of its own.
 */
export function forkArgv(sessionId: string, atUuid: string | null = null): string[] {
  return [
    ...(isSessionId(sessionId) ? ["--resume", sessionId] : [`--resume=${sessionId}`]),
    "--fork-session",
    // `--resume-session-at` requires its value: the next argument is taken whatever it starts with.
    ...(atUuid === null ? [] : ["--resume-session-at", atUuid]),
  ];
}

/** `cd <cwd> && claude <forkArgv>`, every word quoted on its own (core/shell/quote.ts): a session id from a file
 *  name like `a;touch x;#.jsonl` stays one argument. */
export function forkCommandFor(sessionId: string, cwd: string | null, atUuid: string | null = null): string {
  const resume = shellCommand(["claude", ...forkArgv(sessionId, atUuid)]);
  return cwd === null || cwd === "" ? resume : `cd ${quoteShellWord(cwd)} && ${resume}`;
}

/** `ctx archive restore <id> && `: put a deleted transcript back before the fork command runs (`--` first when the
 *  id is not a UUID, so it is never read as an option). */
export function archiveRestorePrefix(sessionId: string): string {
  return `${shellCommand(["ctx", "archive", "restore", ...(isSessionId(sessionId) ? [] : ["--"]), sessionId])} && `;
}

/**
 * The in-session route in current Claude Code: switch to the session, then continue in a copy of it. `/resume`
 * is typed into Claude Code, not a shell, and takes an id or a search: only a real session id (a UUID) is offered;
 * any other id (a transcript not named by Claude Code) gets the picker instead, never its raw text.
 */
export function inSessionCommandFor(sessionId: string): string {
  return isSessionId(sessionId) ? `/resume ${sessionId}, then /branch` : "/resume (pick the session), then /branch";
}

export function toForkCandidate(
  ranked: RankedSession,
  rank: number,
  context: ForkCandidateContext,
  weak = false,
): ForkCandidate {
  const { session } = ranked;
  if (ranked.team !== undefined && !ranked.team.local) return toTeamCandidate(ranked, rank, context.now, weak);
  const modifiedAt = context.transcriptModifiedAt(session.path);
  const exists = modifiedAt !== null;
  const expiresInDays =
    modifiedAt === null
      ? null
      : Math.max(0, Math.floor(context.cleanupPeriodDays - (context.now - modifiedAt) / DAY_MS));
  return {
    ...sharedFields(ranked, rank, context.now, weak, session.cwd),
    transcriptPath: session.path,
    transcriptExists: exists,
    expiresInDays,
    ...archivedOrNot(session.id, session.cwd, exists, expiresInDays, context, ranked.bestChunk.lastUuid ?? null),
    inSessionCommand: inSessionCommandFor(session.id),
    parents: ranked.lineage?.parents ?? [],
    forks: ranked.lineage?.forks ?? [],
    // The lineage's share of forks that went on; `components.chainQuality` is what ranked it (lifted by forks that
    // paid off, docs/forks.md).
    chainQuality: ranked.lineage?.chainQuality ?? ranked.components.chainQuality,
    ...(ranked.team === undefined ? {} : { team: ranked.team }),
    matchUuid: ranked.bestChunk.lastUuid ?? null,
    ...annotationFields(session.annotation),
    alsoIn: ranked.alsoIn ?? [],
  };
}

/** The person's star, tags and note as a result carries them (none: not starred, no tags, no note). */
function annotationFields(
  annotation: SessionAnnotation | undefined,
): Pick<ForkCandidate, "starred" | "labels" | "note"> {
  return { starred: annotation?.starred ?? false, labels: annotation?.labels ?? [], note: annotation?.note ?? null };
}

/** What a candidate says of its session and its match, local or on the team server alike. */
function sharedFields(ranked: RankedSession, rank: number, now: number, weak: boolean, cwd: string | null) {
  const { session } = ranked;
  return {
    rank,
    sessionId: session.id,
    score: ranked.components.relevance,
    // Rounded for people; a weak match's rounded down, so one just below the line never reads as the line itself
    // (0.2496 under "below 25% relevance" as 24%, not 25%).
    scorePercent: (weak ? Math.floor : Math.round)(ranked.components.relevance * 100),
    weak,
    rankScore: ranked.score,
    components: ranked.components,
    project: session.project,
    cwd,
    updatedAt: new Date(session.updatedAt).toISOString(),
    relativeDate: describeAge(session.updatedAt, now),
    topic: session.title === "" ? "(untitled session)" : trimPreview(session.title, 120),
    preview: trimPreview(ranked.bestChunk.text),
    messageCount: session.messageCount,
    matchedChunks: ranked.matchedChunks,
    markers: ranked.markers,
  };
}

/**
 * A teammate's session this machine does not have: `ctx fork <id>` fetches its redacted transcript into this
 * machine's checkout of its project, then forks it (docs/team.md "Fork").
 */
function toTeamCandidate(ranked: RankedSession, rank: number, now: number, weak: boolean): ForkCandidate {
  const { session } = ranked;
  const team = ranked.team as NonNullable<RankedSession["team"]>;
  const fork = shellCommand(["ctx", "fork", ...(isSessionId(session.id) ? [] : ["--"]), session.id]);
  const atUuid = ranked.bestChunk.lastUuid ?? null;
  return {
    ...sharedFields(ranked, rank, now, weak, null),
    transcriptPath: "",
    transcriptExists: false,
    expiresInDays: null,
    warning: team.forkable
      ? null
      : "its transcript was too large to share (team.maxTranscriptMegabytes): it can be read here but not forked",
    forkCommand: team.forkable ? fork : "",
    forkAtCommand:
      team.forkable && atUuid !== null && isSessionId(session.id)
        ? shellCommand(["ctx", "fork", session.id, "--at", atUuid])
        : null,
    inSessionCommand: team.forkable ? `${fork}, then resume the fork` : "",
    parents: [],
    forks: [],
    chainQuality: ranked.components.chainQuality,
    team,
    matchUuid: atUuid,
    ...annotationFields(session.annotation),
    alsoIn: [],
  };
}

/** "team: by alice · github.com/acme/app · branch main · on this machine". */
function teamLine(candidate: ForkCandidate): string | null {
  const team = candidate.team;
  if (team === undefined) return null;
  const parts = [`by ${team.author}`, team.project];
  if (team.branch !== null && team.branch !== "") parts.push(`branch ${team.branch}`);
  parts.push(team.local ? "on this machine" : "on the team server");
  // The author's own tags and note, said as theirs (yours are on the `yours:` line).
  if (team.labels !== undefined && team.labels.length > 0) parts.push(`their tags: ${team.labels.join(", ")}`);
  if (team.note != null)
    parts.push(`their note: ${team.note.length > 160 ? `${team.note.slice(0, 160)}…` : team.note}`);
  return `   team: ${parts.join(" · ")}`;
}

/** A deleted transcript that ctx archived forks after `ctx archive restore` puts it back. */
function archivedOrNot(
  sessionId: string,
  cwd: string | null,
  exists: boolean,
  expiresInDays: number | null,
  context: ForkCandidateContext,
  atUuid: string | null,
): { warning: string | null; forkCommand: string; forkAtCommand: string | null } {
  const fork = forkCommandFor(sessionId, cwd);
  const forkAt = atUuid === null ? null : forkCommandFor(sessionId, cwd, atUuid);
  if (!exists && context.isArchived?.(sessionId) === true) {
    const restore = archiveRestorePrefix(sessionId);
    return {
      warning: "Claude Code's cleanup deleted the transcript, but ctx archived it: the fork command restores it first",
      forkCommand: `${restore}${fork}`,
      forkAtCommand: forkAt === null ? null : `${restore}${forkAt}`,
    };
  }
  return {
    warning: expiryWarning(exists, expiresInDays, context.cleanupPeriodDays),
    forkCommand: fork,
    forkAtCommand: forkAt,
  };
}

/** "also in -home-me-app (3f2a1b9c), -home-me-old (5c0375b4)" or null for a session without copies. */
export function alsoInLine(candidate: ForkCandidate): string | null {
  if (candidate.alsoIn.length === 0) return null;
  return `   also in ${candidate.alsoIn.map((copy) => `${copy.project} (${copy.sessionId.slice(0, 8)})`).join(", ")}`;
}

/** "fork of 1af7fc5e · 2 forks, 1 went on" or null for a session without lineage. */
function chainLine(candidate: ForkCandidate): string | null {
  const parts: string[] = [];
  if (candidate.parents.length > 0) parts.push(`fork of ${candidate.parents.map((id) => id.slice(0, 8)).join(", ")}`);
  if (candidate.forks.length > 0) {
    const wentOn = Math.round(candidate.chainQuality * candidate.forks.length);
    parts.push(`${candidate.forks.length} fork(s), ${wentOn} went on past 20 messages`);
  }
  return parts.length === 0 ? null : `   chain: ${parts.join(" · ")}`;
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

/** The line between strong and weak matches. */
/** A marker as people read it in a result: `working solution`, `pattern`, `waiting`. */
export function markerTag(marker: { type: string }): string {
  return marker.type.toLowerCase().replaceAll("_", " ");
}

export function weakMatchesLine(minPercent: number): string {
  return `weak matches (below ${minPercent}% relevance):`;
}

/** The text the tool and `ctx search` show: strong matches, then a "weak matches" line and the weaker ones. */
export function renderForkCandidates(query: string, candidates: readonly ForkCandidate[], minPercent: number): string {
  const strong = candidates.filter((candidate) => !candidate.weak);
  const lines = [
    strong.length > 0
      ? `Sessions matching "${query}", best first:`
      : `No session matches "${query}" strongly (at least ${minPercent}% relevance); the closest ones:`,
  ];
  let weakShown = strong.length === 0;
  for (const candidate of candidates) {
    if (candidate.weak && !weakShown) {
      lines.push("", `── ${weakMatchesLine(minPercent)}`);
      weakShown = true;
    }
    const marked = candidate.markers.length === 0 ? "" : ` · ${candidate.markers.map(markerTag).join(", ")}`;
    const block = [
      `   ${candidate.scorePercent}% match${marked} · ${candidate.relativeDate} · ${candidate.messageCount} messages · ${candidate.cwd ?? candidate.project}`,
      `   session ${candidate.sessionId}`,
      `   preview: ${candidate.preview}`,
    ];
    const yours = describeAnnotation(candidate);
    if (yours !== null) block.push(`   yours: ${yours}`);
    const team = teamLine(candidate);
    if (team !== null) block.push(team);
    const chain = chainLine(candidate);
    if (chain !== null) block.push(chain);
    const alsoIn = alsoInLine(candidate);
    if (alsoIn !== null) block.push(alsoIn);
    if (candidate.warning !== null) block.push(`   warning: ${candidate.warning}`);
    if (candidate.forkCommand !== "") block.push(`   fork: ${candidate.forkCommand}`);
    if (candidate.forkAtCommand !== null) block.push(`   fork at the match: ${candidate.forkAtCommand}`);
    if (candidate.inSessionCommand !== "") block.push(`   in Claude Code: ${candidate.inSessionCommand}`);
    if (candidate.sessionPreview !== undefined) {
      // Indented under its candidate: no line of a session's preview can pass for a line of the list.
      block.push(
        "   session preview:",
        ...candidate.sessionPreview
          .trimEnd()
          .split("\n")
          .map((line) => `      ${line}`),
      );
    }
    lines.push("", `${candidate.rank}. ${candidate.topic}`, ...block);
  }
  if (strong.length === 0) {
    lines.push(
      "",
      "Refine the query with words the session would contain (file names, error text, feature names), or start fresh.",
    );
  }
  return lines.join("\n");
}

export function toRecentSession(session: IndexedSession, now: number): RecentSession {
  return {
    sessionId: session.id,
    topic: session.title === "" ? "(untitled session)" : trimPreview(session.title, 120),
    project: session.project,
    cwd: session.cwd,
    relativeDate: describeAge(session.updatedAt, now),
    forkCommand: forkCommandFor(session.id, session.cwd),
    ...annotationFields(session.annotation),
  };
}

/** What to say when nothing in the index matches the query at all: the options, and the latest sessions. */
export function renderNoMatch(query: string, recent: readonly RecentSession[] = []): string {
  return [
    `No past session matches "${query}": nothing in the index holds its words.`,
    "Options: refine the query with words the session would contain (file names, error text, feature names),",
    "start fresh, or pick one of the most recent sessions below (run `ctx index` if sessions are missing).",
    ...recent.flatMap((session, i) => {
      const yours = describeAnnotation(session);
      return [
        `${i + 1}. ${session.topic} · ${session.relativeDate} · ${session.cwd ?? session.project}`,
        ...(yours === null ? [] : [`   yours: ${yours}`]),
        `   fork: ${session.forkCommand}`,
      ];
    }),
  ].join("\n");
}
