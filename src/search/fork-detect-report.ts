// The result of fork detection (./fork-detect.ts runForkDetect) and how it is shown: the `ctx search --json` and
// ctx_fork_detect report, and the text both give (the candidates, the no-match answer, or the listing of a query of
// time words alone, after the lines that say what the query's time words and exclusions were read as).
import {
  type ForkCandidate,
  type RecentSession,
  renderForkCandidates,
  renderNoMatch,
} from "../core/search/fork-candidates.ts";
import {
  type EventSession,
  type QueryUnderstanding,
  renderListing,
  understoodLines,
  type Widened,
} from "../core/search/query-understanding.ts";
import type { ForkDetectReport } from "./fork-report-schema.ts";
import { understoodReport } from "./query-filters.ts";
import type { SearchScope } from "./search-scope.ts";
import type { SyncSummary } from "./sync/sync-index.ts";

export interface ForkDetectResult {
  query: string;
  /** Strong matches (relevance at or above the threshold) best first, then the weak ones (`weak: true`). */
  candidates: ForkCandidate[];
  /** When nothing matches at all: the most recently active sessions (same filters), to pick from instead. */
  recent: RecentSession[];
  thresholdPercent: number;
  projects: string[] | null;
  indexedSessions: number;
  /** What catching up did; null when it was skipped. */
  refresh: SyncSummary | null;
  scope: SearchScope;
  /** One line each on what the search had to leave out (the team server unreachable, …). */
  notices: string[];
  /** The query's time words and exclusions (core/search/query-understanding.ts); absent when it has neither. */
  understood?: QueryUnderstanding;
  /** The query's time window held no session at all, or none that matched: every date was searched instead. */
  widened?: Widened;
  /** The session an event bound ("before the migration to pnpm") found; null when none matched its words. */
  eventSession?: EventSession | null;
}

export function forkDetectReportOf(result: ForkDetectResult): ForkDetectReport {
  const weak = result.candidates.filter((candidate) => candidate.weak).length;
  return {
    query: result.query,
    message: renderForkDetect(result),
    results: result.candidates,
    thresholdPercent: result.thresholdPercent,
    strongMatches: result.candidates.length - weak,
    weakMatches: weak,
    recent: result.recent,
    indexedSessions: result.indexedSessions,
    scope: result.scope,
    notices: result.notices,
    ...(result.understood === undefined
      ? {}
      : { understood: understoodReport(result.understood, result.widened, result.eventSession) }),
  };
}

/** The answer as text: the candidates (strong, then weak), or the recent sessions when nothing matched. */
export function renderForkDetect(result: ForkDetectResult): string {
  const understood = result.understood;
  // What was searched: the query without its time words and exclusions, which the lines above the answer name.
  const words = result.widened !== undefined && result.widened !== false ? understood?.textWithTime : understood?.text;
  const searched = words === undefined || words === "" ? result.query : words;
  const answer =
    understood?.listing === true
      ? renderListing(understood, result.recent)
      : result.candidates.length > 0
        ? renderForkCandidates(searched, result.candidates, result.thresholdPercent)
        : renderNoMatch(searched, result.recent);
  const text =
    understood === undefined
      ? answer
      : [...understoodLines(understood, result.widened, result.eventSession), "", answer].join("\n");
  return result.notices.length === 0 ? text : `${text}\n\n${result.notices.map((n) => `Note: ${n}`).join("\n")}`;
}
