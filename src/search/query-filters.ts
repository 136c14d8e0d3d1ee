// A query's time window and exclusions (core/search/query-understanding.ts) as the filters a search honours: the
// session index's (since, startedBefore, exclude: search/session-index/rows.ts), the team's candidates (the server
// has the window; the exclusions are checked here on the chunks it sent), and the report's `understood` field.
import type { Config } from "../config/schema.ts";
import type { SearchFilters } from "../core/search/model.ts";
import type { QueryEvent } from "../core/search/query-event.ts";
import { exclusionPhrase, mentionsExcluded } from "../core/search/query-negation.ts";
import {
  describePeriod,
  type EventSession,
  type QueryUnderstanding,
  understoodLines,
} from "../core/search/query-understanding.ts";
import type { TeamCandidates } from "../core/search/team-candidates.ts";
import type { ForkDetectReport } from "./fork-report-schema.ts";
import { isStrongMatch, searchSessions } from "./search-sessions.ts";
import type { SessionIndex } from "./session-index/session-index.ts";

/**
 * The person's filters narrowed by the query's: a session is in the window when it was active during it (last active
 * at or after its start, started before its end), and out when any chunk of it holds an excluded phrase.
 */
export function applyUnderstanding(filters: SearchFilters, understood: QueryUnderstanding | undefined): SearchFilters {
  if (understood === undefined) return filters;
  const narrowed: SearchFilters = { ...filters };
  const from = understood.period?.from ?? null;
  const to = understood.period?.to ?? null;
  if (from !== null) narrowed.since = narrowed.since === undefined ? from : Math.max(narrowed.since, from);
  if (to !== null) narrowed.startedBefore = to;
  const phrases = understood.excluded.flatMap((text) => exclusionPhrase(text) ?? []);
  if (phrases.length > 0) narrowed.exclude = phrases;
  return narrowed;
}

/**
 * The team's candidates without the sessions an exclusion names. The server searched for the query's words, not the
 * excluded ones, so only the chunks it sent are checked: a team session that holds an excluded word elsewhere stays.
 */
export function withoutExcludedTeam(
  candidates: TeamCandidates,
  understood: QueryUnderstanding | undefined,
): TeamCandidates {
  const excluded = understood?.excluded ?? [];
  if (excluded.length === 0) return candidates;
  const out = new Set(
    candidates.chunks.filter((chunk) => mentionsExcluded(chunk.text, excluded)).map((c) => c.sessionId),
  );
  if (out.size === 0) return candidates;
  return {
    ...candidates,
    chunks: candidates.chunks.filter((chunk) => !out.has(chunk.sessionId)),
    sessions: new Map([...candidates.sessions].filter(([id]) => !out.has(id))),
  };
}

/** The report's `understood` field: the window in ISO and in words, the exclusions, and the lines shown. */
export function understoodReport(
  understood: QueryUnderstanding,
  widened = false,
  eventSession: EventSession | null = null,
): NonNullable<ForkDetectReport["understood"]> {
  const period = understood.period;
  const event = understood.event;
  return {
    searched: widened ? understood.textWithTime : understood.text,
    period:
      period === null
        ? null
        : {
            from: period.from === null ? null : new Date(period.from).toISOString(),
            to: period.to === null ? null : new Date(period.to).toISOString(),
            words: period.words,
            description: describePeriod(period),
          },
    excluded: understood.excluded,
    listing: understood.listing,
    widened,
    event:
      event === null
        ? null
        : {
            side: event.side,
            words: event.words,
            sessionId: eventSession?.id ?? null,
            title: eventSession?.title ?? null,
            at: eventSession === null ? null : new Date(eventSession.createdAt).toISOString(),
          },
    lines: understoodLines(understood, widened, eventSession),
  };
}

/**
 * The session an event bound names: the best strong match for the event's words in the local index (the person's own
 * history), under the same filters; null when nothing matches them strongly.
 */
export async function findEventSession(
  index: SessionIndex,
  event: QueryEvent,
  filters: SearchFilters,
  search: Config["search"],
  now: number,
  currentSessionId: string | undefined,
): Promise<EventSession | null> {
  const ranked = await searchSessions(index, event.words, { filters, limit: 2, search, now });
  const best = ranked.find((entry) => entry.session.id !== currentSessionId);
  if (best === undefined || !isStrongMatch(best, search)) return null;
  const { id, title, createdAt, updatedAt } = best.session;
  return { id, title, createdAt, updatedAt };
}
