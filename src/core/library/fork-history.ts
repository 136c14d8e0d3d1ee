// Fork history (docs/forks.md): the forks the session index found, each matched to the search that offered its
// source and the fork ctx ran, with what became of it; the search success rate; and the chain-quality lift a
// paid-off fork gives its source. Pure: the caller reads the log, the index and the transcripts, and passes the clock.
import { redactText } from "../redact/redact.ts";
import type { ForkLogRecord, ForkOfferRecord, ForkRunRecord } from "./fork-log-schema.ts";
import { type ForkOwnPart, type ForkVerdict, forkVerdict } from "./fork-outcome.ts";

/** A fork counts as the search's when made within this long of it: a printed command run after lunch or the next
 *  morning is still the search's answer; a fork of the same session a week later is a new decision. */
export const FORK_WINDOW_MS = 24 * 3_600_000;

/** A fork the session index knows of (its lineage names a parent), with its own part read from its transcript. */
export interface IndexedFork {
  sessionId: string;
  parentId: string;
  project: string;
  cwd: string | null;
  /** The index's created/updated times; a fork's created time is its copy's, so `own.firstAt` says when it was made. */
  createdAt: number;
  updatedAt: number;
  /** Whether the index knows forks of this fork. */
  forkedAgain: boolean;
  /** Null when its transcript is gone (Claude Code's cleanup): the outcome is then unknown. */
  own: ForkOwnPart | null;
}

export interface ForkRecord {
  sessionId: string;
  source: string;
  project: string;
  cwd: string | null;
  /** When the fork was made: its first line of its own, else the index's times. */
  at: number;
  /** The offered point when the fork was cut there (`--resume-session-at`), else null. */
  point: string | null;
  fromSearch: boolean;
  offer: { at: number; via: "cli" | "mcp"; query: string | null; queryHash: string } | null;
  /** How ctx ran it, when it did. */
  ranBy: "picker" | "fork" | null;
  outcome: {
    verdict: ForkVerdict | "unknown";
    prompts: number;
    replies: number;
    filesModified: string[];
    filesModifiedCount: number;
    /** From the first to the last line of its own (ms). */
    durationMs: number;
    forkedAgain: boolean;
  };
}

export interface ForkHistory {
  forks: ForkRecord[];
  searches: number;
  /** Searches that offered at least one session. */
  searchesWithOffers: number;
  /** Of those, the ones followed by a fork of an offered session within FORK_WINDOW_MS. */
  searchesFollowedByFork: number;
  /** searchesFollowedByFork / searchesWithOffers; null when no search offered anything. */
  successRate: number | null;
  verdicts: Record<ForkVerdict | "unknown", number>;
}

export function buildForkHistory(
  records: readonly ForkLogRecord[],
  indexed: readonly IndexedFork[],
  range: { since?: number } = {},
): ForkHistory {
  const offers = records.filter((r): r is ForkOfferRecord => r.kind === "offer").sort((a, b) => a.at - b.at);
  const runs = records.filter((r): r is ForkRunRecord => r.kind === "run").sort((a, b) => a.at - b.at);
  const followed = new Set<ForkOfferRecord>();
  const forks: ForkRecord[] = [];
  for (const fork of indexed) {
    const at = fork.own?.firstAt ?? fork.updatedAt;
    if (range.since !== undefined && at < range.since) continue;
    const offer = latestBefore(offers, at, (o) => o.sessions.some((s) => s.sessionId === fork.parentId));
    const run = latestBefore(runs, at, (r) => r.sessionId === fork.parentId);
    if (offer !== null) followed.add(offer);
    forks.push({
      sessionId: fork.sessionId,
      source: fork.parentId,
      project: fork.project,
      cwd: fork.cwd,
      at,
      point: fork.own?.sawPoint ?? null,
      fromSearch: offer !== null,
      offer: offer === null ? null : { at: offer.at, via: offer.via, query: offer.query, queryHash: offer.queryHash },
      ranBy: run?.via ?? null,
      outcome: outcomeOf(fork),
    });
  }
  forks.sort((a, b) => b.at - a.at || (a.sessionId < b.sessionId ? -1 : 1));
  const inRange = offers.filter((o) => range.since === undefined || o.at >= range.since);
  const withOffers = inRange.filter((o) => o.sessions.length > 0);
  const followedCount = withOffers.filter((o) => followed.has(o)).length;
  const verdicts = { "paid-off": 0, abandoned: 0, continued: 0, unknown: 0 };
  for (const fork of forks) verdicts[fork.outcome.verdict]++;
  return {
    forks,
    searches: inRange.length,
    searchesWithOffers: withOffers.length,
    searchesFollowedByFork: followedCount,
    successRate: withOffers.length === 0 ? null : followedCount / withOffers.length,
    verdicts,
  };
}

/** Paid-off forks per source session: what lifts a source's chain quality in search. */
export function paidOffBySource(forks: readonly ForkRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const fork of forks) {
    if (fork.outcome.verdict === "paid-off") counts.set(fork.source, (counts.get(fork.source) ?? 0) + 1);
  }
  return counts;
}

/** The last record at or before `at`, within FORK_WINDOW_MS, that `fits`. `sorted` is oldest first. */
function latestBefore<T extends { at: number }>(
  sorted: readonly T[],
  at: number,
  fits: (record: T) => boolean,
): T | null {
  for (let i = sorted.length - 1; i >= 0; i--) {
    const record = sorted[i] as T;
    if (record.at > at) continue;
    if (at - record.at > FORK_WINDOW_MS) break;
    if (fits(record)) return record;
  }
  return null;
}

function outcomeOf(fork: IndexedFork): ForkRecord["outcome"] {
  const own = fork.own;
  if (own === null) {
    return {
      verdict: fork.forkedAgain ? "paid-off" : "unknown",
      prompts: 0,
      replies: 0,
      filesModified: [],
      filesModifiedCount: 0,
      durationMs: 0,
      forkedAgain: fork.forkedAgain,
    };
  }
  return {
    verdict: forkVerdict(own, fork.forkedAgain),
    prompts: own.prompts,
    replies: own.replies,
    filesModified: own.filesModified.map((path) => redactText(path).text),
    filesModifiedCount: own.filesModifiedCount,
    durationMs: own.firstAt === null || own.lastAt === null ? 0 : Math.max(0, own.lastAt - own.firstAt),
    forkedAgain: fork.forkedAgain,
  };
}
