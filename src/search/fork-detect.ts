// Fork detection end to end: bring the index up to date within a time budget, search it with the person's
// filters, and turn the ranked sessions into candidates with fork commands. Shared by the
// `ctx_fork_detect` tool and `ctx search`, so both give the same answer.
import { existsSync, statSync } from "node:fs";
import type { Config } from "../config/schema.ts";
import { type ForkCandidate, toForkCandidate, toRecentSession } from "../core/search/fork-candidates.ts";
import type { MemoryType, RankedSession, SearchFilters } from "../core/search/model.ts";
import { type QueryUnderstanding, understandQuery, type Widened } from "../core/search/query-understanding.ts";
import type { TeamCandidatesPort, TeamFetch } from "../core/search/team-candidates.ts";
import { CtxError } from "../errors.ts";
import { isArchived } from "../store/archive/archive-schedule.ts";
import { readPaidOffSources } from "../store/library/fork-paid-off.ts";
import { openReader, readCleanupPeriodDays, refreshIndex, syncedWithin } from "./fork-detect-index.ts";
import type { ForkDetectResult } from "./fork-detect-report.ts";
import { recordForkOffer } from "./fork-offer-log.ts";
import type { ForkDetectReport } from "./fork-report-schema.ts";
import { resolveClaudeDir, resolveIndexPath } from "./paths.ts";
import {
  applyUnderstanding,
  buildFilters,
  findEventSession,
  teamFilters,
  teamProject,
  withoutExcludedTeam,
} from "./query-filters.ts";
import { requireJoinedTeam, type SearchScope } from "./search-scope.ts";
import { isStrongMatch, passagePoolSize, searchSessions } from "./search-sessions.ts";
import { openSessionIndex, type SessionIndex } from "./session-index/session-index.ts";

export { forkDetectReportOf, renderForkDetect } from "./fork-detect-report.ts";
export type { ForkDetectReport, ForkDetectResult };

import { askTeam, scoreTeamCandidates, type TeamAsk, type TeamHits, teamQueryText, teamWeighing } from "./team-hits.ts";

export interface ForkDetectRequest {
  query: string;
  /** "this" / "." for the current project, a path, a project folder name or part of one. */
  project?: string;
  limit?: number;
  /** ISO date or a relative age such as `7d`, `3w`, `2m`. */
  since?: string;
  until?: string;
  /** Where to search; absent = `search.scope` (src/team/search-fetch.ts). */
  scope?: SearchScope;
  /** Only sessions whose matching chunks carry one of these memory markers. */
  markers?: MemoryType[];
  /** A bounded preview of the top results (docs/preview.md): `true` for the top 3, a number for that many. */
  preview?: boolean | number;
  /** Only sessions the person tagged with every one of these (`ctx session tag`; normalised here). */
  tags?: string[];
  /** Only sessions the person starred. */
  starred?: boolean;
}

/** How many results `preview: true` previews, and the most a number may ask for. */
export const DEFAULT_PREVIEWS = 3;
export const MAX_PREVIEWS = 10;

export interface ForkDetectOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  projectRoot: string;
  now: () => number;
  claudeDir?: string;
  /** The session asking (Claude Code's CLAUDE_CODE_SESSION_ID): never offered as its own fork. */
  currentSessionId?: string;
  /** How long to spend catching the index up before searching (0 = search what is there). */
  refreshBudgetMs?: number;
  /**
   * The team's candidates, for a search whose scope asks for the team: the shells give it
   * (src/team/search-port.ts teamCandidatesPort; `ctx serve` keeps its connection between searches).
   */
  teamCandidates?: TeamCandidatesPort;
  /**
   * Record what this search offered in the fork log (docs/forks.md), as asked by `ctx search` or the MCP tool;
   * absent: nothing recorded. `warn` hears a log that could not be written (the search goes on).
   */
  recordOffer?: { via: "cli" | "mcp"; warn: (message: string) => void };
}

const DEFAULT_REFRESH_BUDGET_MS = 1_500;
/**
 * An index synced this recently is searched as it is: `ctx serve`'s watcher keeps it current, and catching up
 * means a stat of every transcript, most of a cold search's cost (docs/fork-detect.md).
 */
const FRESH_ENOUGH_MS = 60_000;

export async function runForkDetect(request: ForkDetectRequest, options: ForkDetectOptions): Promise<ForkDetectResult> {
  const query = request.query.trim();
  if (query === "") {
    throw new CtxError("USAGE", "the query is empty", { hint: "say what you are about to work on" });
  }
  const now = options.now();
  const understood = understandQuery(query, now) ?? undefined;
  // The words searched: without the time words ("last week" must not match sessions that say "week") and exclusions.
  const searchText = understood === undefined ? query : understood.text;
  const scope = request.scope ?? options.config.search.scope;
  const claudeDir = resolveClaudeDir({
    ...(options.claudeDir === undefined ? {} : { claudeDir: options.claudeDir }),
    env: options.env,
  });
  const dbPath = resolveIndexPath(options.env);
  // The team's candidates are fetched while the local index catches up and is searched, through the port the shell
  // gave: the team's code (and the PostgreSQL client) is loaded only for a team search.
  const limit = request.limit ?? 5;
  let fetchTeamFor: ((text: string, window: QueryUnderstanding | undefined) => TeamAsk) | null = null;
  let teamFetch: TeamAsk | null = null;
  if (scope !== "local") {
    requireJoinedTeam(options.config, scope);
    const fetchTeam = options.teamCandidates;
    if (fetchTeam === undefined) {
      throw new CtxError("USAGE", `a ${scope} search is not available here`, {
        hint: "search with scope local, or through `ctx search` or the ctx MCP server",
      });
    }
    const projectContains = teamProject(request.project);
    // Weighed by the team's own statistics (./team-hits.ts teamWeighing); the words the local index would match on
    // are what a server without them is sent. The server is given the time bounds (the query's window among them).
    fetchTeamFor = (text, window) =>
      askTeam(fetchTeam, {
        query: () => teamQueryFor(dbPath, text),
        filters: teamFilters(request, now, window),
        ...(projectContains === undefined ? {} : { projectContains }),
        weighing: teamWeighing(text, {
          feedback: options.config.search.weights.feedbackSimilarity > 0,
          // The rows of the sessions the search can rank: twice its pool, for those dropped after the read (the
          // member's own, listed from the local index, and any the server's policies hide).
          sessions: { count: 2 * passagePoolSize(limit + 1), excluded: window?.excluded ?? [] },
        }),
      });
    teamFetch = fetchTeamFor(searchText, understood);
  }
  const budgetMs = options.refreshBudgetMs ?? DEFAULT_REFRESH_BUDGET_MS;
  const refresh = syncedWithin(dbPath, now, FRESH_ENOUGH_MS)
    ? null
    : await refreshIndex(claudeDir, dbPath, budgetMs, options.env);
  const threshold = options.config.search.minSimilarity;
  if (teamFetch !== null && !existsSync(dbPath)) {
    // No index yet (a member who has just joined): the team's results are scored by the team's statistics, and
    // merged through an empty index.
    openSessionIndex(dbPath).close();
  }
  if (!existsSync(dbPath)) {
    // Nothing indexed and nothing to index (no projects folder): an empty answer, not an error.
    const projects = request.project === undefined ? null : [request.project];
    return {
      query,
      candidates: [],
      recent: [],
      thresholdPercent: Math.round(threshold * 100),
      projects,
      indexedSessions: 0,
      refresh,
      scope,
      notices: [],
      ...(understood === undefined ? {} : { understood }),
    };
  }
  const index = openReader(dbPath);
  const asked = buildFilters(request, options.projectRoot, now, index.projects());
  const filters = applyUnderstanding(asked, understood);
  if (understood?.listing === true) {
    // Nothing to search for: the window's sessions (less the excluded ones), most recent first.
    const listed = index
      .recentSessions(limit + 1, filters)
      .filter((session) => session.id !== options.currentSessionId)
      .slice(0, limit)
      .map((session) => toRecentSession(session, now));
    return {
      query,
      candidates: [],
      recent: listed,
      thresholdPercent: Math.round(threshold * 100),
      projects: filters.projects ?? null,
      indexedSessions: index.sessionCount(),
      refresh,
      scope,
      notices: [],
      understood,
    };
  }
  // The embedders are loaded only when one is configured: a BM25 search never needs them.
  const vectorSearch =
    scope === "team" || options.config.embedder.provider === "none"
      ? undefined
      : (await import("./embedders/vector-search.ts")).vectorSearchFor(index, options.config, { env: options.env });
  // Sources whose forks paid off rank a little higher (docs/forks.md "Ranking"); a small file, absent until fork
  // history was first built.
  const paidOffForks = readPaidOffSources(options.env);
  const notices: string[] = [];
  const teamHitsOf = async (pending: Promise<TeamFetch>, text: string): Promise<TeamHits | undefined> => {
    const fetched = await pending;
    if (fetched.notice !== null && !notices.includes(fetched.notice)) notices.push(fetched.notice);
    if (fetched.candidates === null) return undefined;
    if (
      fetched.candidates.statistics == null &&
      index.sessionCount() === 0 &&
      !notices.includes(TEAM_NEEDS_STATISTICS)
    ) {
      notices.push(TEAM_NEEDS_STATISTICS);
    }
    return scoreTeamCandidates(index, text, withoutExcludedTeam(fetched.candidates, understood), {
      skipLocal: scope === "all",
    });
  };
  // The local side's own search runs while the server works on the team's candidates (once their statement is handed
  // to the connection: the client's round trips before it need this thread), and the team's hits join it when they
  // come. A widened search's second fetch is awaited whole.
  if (teamFetch !== null) await teamFetch.handedOver;
  const teamPending = teamFetch === null ? undefined : teamHitsOf(teamFetch.fetched, searchText);
  teamPending?.catch(() => {}); // awaited below; a local failure first must not leave it unhandled
  const eventSession =
    understood?.event == null
      ? undefined
      : await findEventSession(index, understood.event, filters, options.config.search, now, options.currentSessionId);
  const event =
    understood?.event == null || eventSession == null
      ? undefined
      : { side: understood.event.side, session: eventSession };
  const search = async (
    searchFilters: SearchFilters,
    text = searchText,
    teamHits: TeamHits | Promise<TeamHits | undefined> | undefined = teamPending,
  ) =>
    (
      await searchSessions(index, text, {
        filters: searchFilters,
        limit: limit + 1,
        search: options.config.search,
        now,
        ...(vectorSearch === undefined ? {} : { vectorSearch }),
        ...(teamHits === undefined ? {} : { team: teamHits }),
        paidOffForks,
        localResults: scope !== "team",
        ...(event === undefined ? {} : { event }),
      })
    )
      .filter((entry) => entry.session.id !== options.currentSessionId)
      .slice(0, limit);
  let ranked = await search(filters);
  const team = await teamPending;
  let widened: Widened = false;
  const strongIn = (entries: readonly RankedSession[]) =>
    entries.some((entry) => isStrongMatch(entry, options.config.search));
  if (understood?.period != null && !strongIn(ranked)) {
    // The window holds no session at all (a question about a story's "last week", an index that is older), none
    // whose words match, or only weak matches: every date is searched, the time words among the words as they were
    // before they were read, and the answer says which (an empty answer tells the person nothing; the best match of
    // another week may be the session they remember in the wrong week). A window of weak matches is given up only
    // for a strong match elsewhere (search.minSimilarity: the line the answer draws between strong and weak).
    // A window with sessions when no date holds a match either: the window's sessions are listed below instead.
    // The team's candidates were fetched within the window: the server is asked again without it (only when the
    // window gave no strong match, so a question with time words that finds its answer there costs one fetch; and
    // not when the first fetch failed: an unreachable server is not waited for twice).
    const empty = ranked.length === 0 && index.recentSessions(1, filters).length === 0;
    const anyDateWindow = { ...understood, period: null };
    const anyDateTeam =
      fetchTeamFor === null || team === undefined
        ? undefined
        : await teamHitsOf(fetchTeamFor(understood.textWithTime, anyDateWindow).fetched, understood.textWithTime);
    const anyDate = await search(applyUnderstanding(asked, anyDateWindow), understood.textWithTime, anyDateTeam);
    if (ranked.length > 0 ? strongIn(anyDate) : empty || anyDate.length > 0) {
      widened = empty ? "empty" : ranked.length === 0 ? "unmatched" : "weak";
      ranked = anyDate;
    }
  }
  if (options.recordOffer !== undefined) {
    // The query's words are kept where the redactor is loaded already (core/library/fork-offer.ts says why): the MCP
    // server, and a search that caught the index up (the sync redacts what it ingests).
    const { via, warn } = options.recordOffer;
    const redact = via === "mcp" || refresh !== null ? (await import("../core/redact/redact.ts")).redactText : null;
    await recordForkOffer(options.env, now, via, query, ranked, warn, redact && ((text) => redact(text).text));
  }
  const context = {
    now,
    cleanupPeriodDays: readCleanupPeriodDays(claudeDir),
    transcriptModifiedAt: (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null,
    isArchived: (sessionId: string) => isArchived(options.env, sessionId),
  };
  // Strong matches first, weak ones after (each group in rank order): the threshold draws the line, it hides nothing.
  const strong = ranked.filter((entry) => isStrongMatch(entry, options.config.search));
  const weak = ranked.filter((entry) => !isStrongMatch(entry, options.config.search));
  const candidates = [
    ...strong.map((entry, i) => toForkCandidate(entry, i + 1, context)),
    ...weak.map((entry, i) => toForkCandidate(entry, strong.length + i + 1, context, true)),
  ];
  await addPreviews(index, candidates, request.preview);
  const recent =
    candidates.length > 0
      ? []
      : index
          .recentSessions(
            4,
            widened !== false && understood !== undefined
              ? applyUnderstanding(asked, { ...understood, period: null })
              : filters,
          )
          .filter((session) => session.id !== options.currentSessionId)
          .slice(0, 3)
          .map((session) => toRecentSession(session, now));
  return {
    query,
    candidates,
    recent,
    thresholdPercent: Math.round(threshold * 100),
    projects: filters.projects ?? null,
    indexedSessions: index.sessionCount(),
    refresh,
    scope,
    notices,
    ...(understood === undefined ? {} : { understood, widened }),
    ...(eventSession === undefined ? {} : { eventSession }),
  };
}

/** The bounded preview of the first results the request asks for, each read from its transcript (a teammate's
 *  session this machine does not have gets none). */
async function addPreviews(
  index: SessionIndex,
  candidates: ForkCandidate[],
  preview: boolean | number | undefined,
): Promise<void> {
  const count =
    preview === true
      ? DEFAULT_PREVIEWS
      : typeof preview === "number"
        ? Math.min(Math.max(0, preview), MAX_PREVIEWS)
        : 0;
  if (count === 0) return;
  const { boundedPreviewOf } = await import("./session-preview.ts");
  for (const candidate of candidates.slice(0, count)) {
    if (candidate.team !== undefined && !candidate.team.local) continue;
    candidate.sessionPreview = await boundedPreviewOf(index, candidate.sessionId, {
      atUuid: candidate.matchUuid ?? null,
    });
  }
}

/**
 * The query's words the local index would match on (./team-hits.ts teamQueryText); the whole query without one. Asked
 * for only by a server that keeps no statistics, while the search may hold the shared reader: read on a handle of its
 * own, which openReader's reopening (a replaced index) cannot close under the search.
 */
function teamQueryFor(dbPath: string, query: string): string {
  if (!existsSync(dbPath)) return query;
  let index: SessionIndex | undefined;
  try {
    index = openSessionIndex(dbPath, { readonly: true });
    return teamQueryText(query, index.bm25Model(query));
  } catch {
    // A damaged index is reported by the search itself, with its hint.
    return query;
  } finally {
    index?.close();
  }
}

const TEAM_NEEDS_STATISTICS =
  "team results are scored with this machine's index statistics, and there is no index yet: the team server keeps none (the administrator runs `ctx team migrate`)";
