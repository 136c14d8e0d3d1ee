// The filters a fork-detect search honours: the person's (`--project`, `--since`, `--until`, `--marker`), narrowed by
// the query's time window and exclusions (core/search/query-understanding.ts) for the session index (since,
// startedBefore, exclude: search/session-index/rows.ts) and the team (the server has the window; the exclusions are
// checked here on the chunks it sent); the event session a query names; and the report's `understood` field.
import type { Config } from "../config/schema.ts";
import { normalizeLabels } from "../core/library/annotation.ts";
import { parseTimeBound, selectProjects } from "../core/search/fork-query.ts";
import type { MemoryType, SearchFilters } from "../core/search/model.ts";
import type { QueryEvent } from "../core/search/query-event.ts";
import { exclusionPhrase, mentionsExcluded } from "../core/search/query-negation.ts";
import {
  describePeriod,
  type EventSession,
  type QueryUnderstanding,
  understoodLines,
  type Widened,
} from "../core/search/query-understanding.ts";
import type { TeamCandidates } from "../core/search/team-candidates.ts";
import { CtxError } from "../errors.ts";
import type { ForkDetectReport } from "./fork-report-schema.ts";
import { isStrongMatch, searchSessions } from "./search-sessions.ts";
import type { SessionIndex } from "./session-index/session-index.ts";

/** The filters a fork-detect request names (./fork-detect.ts ForkDetectRequest). */
export interface RequestFilters {
  project?: string;
  since?: string;
  until?: string;
  markers?: MemoryType[];
  /** The person's labels (`ctx session tag`), every one required; normalised here. */
  tags?: string[];
  starred?: boolean;
}

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
  widened: Widened = false,
  eventSession: EventSession | null = null,
): NonNullable<ForkDetectReport["understood"]> {
  const period = understood.period;
  const event = understood.event;
  return {
    searched: widened !== false ? understood.textWithTime : understood.text,
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
    widened: widened !== false,
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

/** The person's own filters (`--project`, `--since`, `--until`, `--marker`) as the index's; a bad one is a CtxError. */
export function buildFilters(
  request: RequestFilters,
  projectRoot: string,
  now: number,
  known: string[],
): SearchFilters {
  const filters: SearchFilters = {};
  if (request.project !== undefined && request.project.trim() !== "") {
    filters.projects = selectProjects(request.project, projectRoot, known);
    if (filters.projects.length === 0) {
      throw new CtxError("NOT_FOUND", `no indexed project matches "${request.project}"`, {
        hint: `known projects: ${known.slice(0, 8).join(", ") || "none yet (run ctx index)"}`,
      });
    }
  }
  const since = timeBound("since", request.since, now);
  const until = timeBound("until", request.until, now);
  if (since !== undefined) filters.since = since;
  if (until !== undefined) filters.until = until;
  if (request.markers !== undefined && request.markers.length > 0) filters.markers = request.markers;
  if (request.tags !== undefined && request.tags.length > 0) filters.labels = normalizeLabels(request.tags);
  if (request.starred === true) filters.starred = true;
  return filters;
}

function timeBound(name: string, text: string | undefined, now: number): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const parsed = parseTimeBound(text, now);
  if (parsed === null) {
    throw new CtxError("USAGE", `${name} "${text}" is not a date`, {
      hint: "use an ISO date (2026-10-01) or an age such as 7d, 3w, 2m, 1y",
    });
  }
  return parsed;
}

/**
 * The team side honours the time bounds, the query's window among them (a bad one is reported by the local side's own
 * check). The server keeps a session that ended after `since` and started by `until`: the window's overlap.
 */
export function teamFilters(
  request: RequestFilters,
  now: number,
  understood: QueryUnderstanding | undefined,
): SearchFilters {
  let since = request.since === undefined ? null : parseTimeBound(request.since, now);
  let until = request.until === undefined ? null : parseTimeBound(request.until, now);
  const from = understood?.period?.from ?? null;
  const to = understood?.period?.to ?? null;
  if (from !== null) since = since === null ? from : Math.max(since, from);
  if (to !== null) until = until === null ? to - 1 : Math.min(until, to - 1);
  return { ...(since === null ? {} : { since }), ...(until === null ? {} : { until }) };
}

/**
 * `project` for the team side: team sessions carry a project identity (`github.com/acme/app`), not a folder, so
 * the text is matched against it; "this" and "." name no identity here and leave the team side unfiltered.
 */
export function teamProject(project: string | undefined): string | undefined {
  const text = project?.trim() ?? "";
  return text === "" || text === "this" || text === "." ? undefined : text;
}
