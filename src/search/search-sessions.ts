// Session search for fork detection: BM25 chunk hits (and vector hits when an embedder is configured,
// fused by reciprocal rank), grouped by session; the leading sessions get their best passage scored
// (src/core/search/passage.ts), their best chunks scored on the words the query's best chunks share
// (pseudo-relevance feedback, src/core/search/feedback.ts) and matched against the dates the query names
// (src/core/search/query-dates.ts), then all are ranked (src/core/search/ranking.ts, docs/search.md). A team
// search adds the team server's chunks, scored as the local index scores (./team-hits.ts), to the same pool.
import type { Config } from "../config/schema.ts";
import { matchesAnnotationFilter } from "../core/library/annotation.ts";
import { liftChainQuality } from "../core/library/chain-lift.ts";
import { combineStatistics, queryTermsOf, weighWithStatistics } from "../core/search/bm25-score.ts";
import { typedText } from "../core/search/chunker.ts";
import {
  FEEDBACK_CANDIDATES,
  FEEDBACK_DOCUMENTS,
  FEEDBACK_TERMS,
  feedbackQuery,
  feedbackTerms,
} from "../core/search/feedback.ts";
import type { ChunkHit, RankedSession, SearchFilters } from "../core/search/model.ts";
import { bestPassageSimilarity, capByPool, type WeightedQuery } from "../core/search/passage.ts";
import { matchesNamedDate, parseQueryDates } from "../core/search/query-dates.ts";
import { type ActiveSpan, onEventSide, type QueryEvent } from "../core/search/query-event.ts";
import {
  fuseByReciprocalRank,
  rankSessions,
  type SessionMatches,
  validateRankingSettings,
} from "../core/search/ranking.ts";
import { tokenizeForSearch } from "../core/search/tokens.ts";
import { CtxError } from "../errors.ts";
import { readCanonicals, readCopies } from "./session-index/duplicates.ts";
import { readLineage } from "./session-index/lineage.ts";
import type { SessionIndex } from "./session-index/session-index.ts";
import type { TeamHits } from "./team-hits.ts";

export type VectorSearch = (query: string, limit: number, filters: SearchFilters) => Promise<ChunkHit[]>;

/** Chunks fetched per retriever before grouping: enough for every plausible session to show its matches. */
export const CHUNK_CANDIDATES = 300;
export const DEFAULT_SESSION_LIMIT = 5;
/** Sessions whose passages are scored: the leaders by best chunk (at least this many, else twice the limit). */
export const PASSAGE_POOL = 20;
/** The sessions a search of `limit` results scores further and ranks: the leaders by their best chunk. */
export function passagePoolSize(limit: number): number {
  return Math.max(PASSAGE_POOL, 2 * limit);
}
/** A session's passages (and feedback terms) are looked for in its best few chunks only. */
const PASSAGE_CHUNKS = 2;
/** A session active a day either side of a named date still matches it (time zones, sessions past midnight). */
const DATE_SLACK_MS = 86_400_000;

export interface SearchSessionsOptions {
  filters?: SearchFilters;
  limit?: number;
  search: Config["search"];
  now?: number;
  vectorSearch?: VectorSearch;
  /**
   * The team server's candidates, already scored as the local index would score them (./team-hits.ts); a promise
   * is awaited after the local index's own candidates are read, so that reading overlaps the server's work.
   */
  team?: TeamHits | Promise<TeamHits | undefined>;
  /** Forks that paid off, per source session (fork history, docs/forks.md): each lifts its source's chain quality. */
  paidOffForks?: ReadonlyMap<string, number>;
  /** false: rank the team's sessions only (search.scope `team`); the local index still weighs the query. */
  localResults?: boolean;
  /**
   * "before the migration to pnpm", its session found: sessions on that side count as active on a named date
   * (query-event.ts), so the event weighs as a named date does.
   */
  event?: { side: QueryEvent["side"]; session: ActiveSpan };
}

export async function searchSessions(
  index: SessionIndex,
  query: string,
  options: SearchSessionsOptions,
): Promise<RankedSession[]> {
  const problem = validateRankingSettings(options.search);
  if (problem !== null) {
    throw new CtxError("CONFIG_INVALID", problem, { hint: "fix the search section of your ctx config (ctx config)" });
  }
  const filters = options.filters ?? {};
  const annotationFilter = {
    ...(filters.starred === true ? { starred: true } : {}),
    ...(filters.labels === undefined ? {} : { labels: filters.labels }),
  };
  const localResults = options.localResults ?? true;
  const lexical = localResults ? index.searchChunks(query, filters, CHUNK_CANDIDATES) : [];
  const local =
    options.vectorSearch === undefined || !localResults
      ? lexical
      : fuseByReciprocalRank([lexical, await options.vectorSearch(query, CHUNK_CANDIDATES, filters)]);
  const limit = options.limit ?? DEFAULT_SESSION_LIMIT;
  const poolSize = passagePoolSize(limit);
  const tokens = chunkTokens();
  const typed = chunkTokens(typedText);
  if (options.team instanceof Promise) {
    const weights = options.search.weights;
    const warm = {
      tokens: weights.passageSimilarity > 0 || weights.feedbackSimilarity > 0 ? tokens : null,
      typed: weights.passageSimilarity > 0 && weights.promptSimilarity > 0 ? typed : null,
    };
    await whileWaiting(options.team, warmLeaders(local, poolSize, warm));
  }
  const team = await options.team;
  tokens.add(team?.tokens);
  const hits = team === undefined ? local : [...local, ...team.hits];
  const bySession = groupBySession(hits);
  foldDuplicates(bySession, localResults ? readCanonicals(index, bySession.keys()) : new Map());
  // The pool: sessions by their best chunk; only these are scored further and ranked.
  const pool = [...bySession.entries()]
    .map(([sessionId, sessionHits]) => ({ sessionId, hits: sessionHits.sort((a, b) => b.similarity - a.similarity) }))
    .sort((a, b) => (b.hits[0]?.similarity ?? 0) - (a.hits[0]?.similarity ?? 0))
    .slice(0, poolSize);
  const sessions = index.getSessions(pool.map((entry) => entry.sessionId));
  for (const [id, found] of team?.sessions ?? []) if (!sessions.has(id)) sessions.set(id, found.session);
  const weights = options.search.weights;
  // Each session's passages are weighed by its own corpus's statistics: the local index's, or the team's (kept on
  // the server, ./team-hits.ts). The feedback words, from the pool's best chunks, are weighed by the pool's corpus:
  // the team's for a team-only search, the local index's and the team's together when both are searched (a word
  // only local chunks hold counts as in none of the team's: its statistics were not read).
  const weighLocal = (text: string) => index.weighQuery(text);
  const weighTeam = team?.weigh;
  const teamStatistics = team?.statistics;
  const weighFeedback =
    weighTeam === undefined || teamStatistics === undefined
      ? weighLocal
      : !localResults
        ? weighTeam
        : (text: string) =>
            weighWithStatistics(text, combineStatistics(index.termStatistics(queryTermsOf(text)), teamStatistics));
  // Passages are weighed among the pool: a word most leading sessions hold weighs no more than it would in a history
  // of only those (core/search/passage.ts capByPool). Feedback keeps the corpus's weights: its words are chosen from
  // the pool's best chunks for what they share.
  let bestChunks: string[][][] | undefined;
  const weighPassages = (weigh: (text: string) => WeightedQuery) => {
    bestChunks ??= pool.map((entry) => entry.hits.slice(0, PASSAGE_CHUNKS).map(tokens));
    return capByPool(weigh(query), bestChunks);
  };
  const weighted = weights.passageSimilarity > 0 ? weighPassages(weighLocal) : null;
  const teamWeighted = weights.passageSimilarity > 0 && weighTeam !== undefined ? weighPassages(weighTeam) : null;
  const feedback =
    weights.feedbackSimilarity > 0
      ? feedbackFor(
          weighFeedback,
          (weighFeedback === weighLocal && weighted !== null ? weighted : weighFeedback(query)).terms,
          hits,
          tokens,
        )
      : null;
  const periods = weights.namedDate > 0 ? parseQueryDates(query) : [];
  const event = weights.namedDate > 0 ? options.event : undefined;
  const lineage = readLineage(
    index,
    pool.map((entry) => entry.sessionId),
  );
  const matches: SessionMatches[] = [];
  for (const { sessionId, hits: sessionHits } of pool) {
    const session = sessions.get(sessionId);
    if (session === undefined) continue;
    const fromTeam = team?.sessions.get(sessionId);
    const match: SessionMatches = {
      session,
      hits: sessionHits,
      totalChunks: fromTeam?.totalChunks ?? index.chunkCount(sessionId),
    };
    const origin = team?.origins.get(sessionId);
    if (origin !== undefined) match.team = origin;
    const chain = fromTeam === undefined ? lineage.get(sessionId) : undefined;
    if (chain !== undefined) {
      match.lineage = chain;
      match.chainQuality = liftChainQuality(chain.chainQuality, options.paidOffForks?.get(sessionId) ?? 0);
    } else if (fromTeam?.chainQuality != null) match.chainQuality = fromTeam.chainQuality;
    const best = sessionHits.slice(0, PASSAGE_CHUNKS);
    const passageQuery = fromTeam !== undefined && teamWeighted !== null ? teamWeighted : weighted;
    if (passageQuery !== null) {
      match.passageSimilarity = Math.max(0, ...best.map((hit) => bestPassageSimilarity(tokens(hit), passageQuery)));
    }
    if (passageQuery !== null && weights.promptSimilarity > 0) {
      // What the person typed, as one passage: a query is written as a prompt opening a session is. Any matching
      // chunk's prompts count, not only the best chunks': the prompt that asked for a task is often in a chunk whose
      // replies say less of it than a later report does.
      match.promptSimilarity = Math.max(
        0,
        ...sessionHits.map((hit) => bestPassageSimilarity(typed(hit), passageQuery, Number.MAX_SAFE_INTEGER)),
      );
    }
    if (feedback !== null) {
      // The whole chunk is the window: feedback words are the topic's, not a phrase's.
      match.feedbackSimilarity = Math.max(
        0,
        ...best.map((hit) => bestPassageSimilarity(tokens(hit), feedback, Number.MAX_SAFE_INTEGER)),
      );
    }
    if (periods.length > 0) {
      match.namedDate = matchesNamedDate(periods, session.createdAt - DATE_SLACK_MS, session.updatedAt + DATE_SLACK_MS);
    }
    if (event !== undefined) {
      match.namedDate = (match.namedDate ?? true) && onEventSide(event.side, session, event.session);
    }
    matches.push(match);
  }
  const markers = filters.markers;
  const kept = matches.filter(
    (match) =>
      (markers === undefined ||
        markers.length === 0 ||
        match.hits.some((hit) => hit.memoryType !== null && markers.includes(hit.memoryType))) &&
      // The index's SQL already kept local sessions by the person's labels and star; a team session passes only when
      // this machine's library annotates it (a teammate's own tags are theirs, not a filter of yours).
      matchesAnnotationFilter(match.session.annotation, annotationFilter),
  );
  const ranked = rankSessions(kept, options.search, options.now ?? Date.now(), limit);
  const copies = readCopies(
    index,
    ranked.filter((result) => !team?.sessions.has(result.session.id)).map((result) => result.session.id),
  );
  for (const result of ranked) {
    const alsoIn = copies.get(result.session.id);
    if (alsoIn !== undefined) result.alsoIn = alsoIn;
  }
  return ranked;
}

/**
 * A duplicate's hits (a copy that added nothing, docs/search.md "Duplicates") are its canonical session's: dropped
 * when the canonical has hits of its own (the same copied text), else counted as the canonical's, so a group fills
 * one place in the results, never the top five.
 */
function foldDuplicates(bySession: Map<string, ChunkHit[]>, canonicals: ReadonlyMap<string, string>): void {
  for (const [copy, canonical] of canonicals) {
    const copyHits = bySession.get(copy);
    bySession.delete(copy);
    if (copyHits === undefined || bySession.has(canonical)) continue;
    bySession.set(
      canonical,
      copyHits.map((hit) => ({ ...hit, sessionId: canonical })),
    );
  }
}

/** The hits by session, each session's in the order they came. */
function groupBySession(hits: readonly ChunkHit[]): Map<string, ChunkHit[]> {
  const bySession = new Map<string, ChunkHit[]>();
  for (const hit of hits) {
    const list = bySession.get(hit.sessionId);
    if (list === undefined) bySession.set(hit.sessionId, [hit]);
    else list.push(hit);
  }
  return bySession;
}

/** A chunk's token stream, tokenized once per search; `add` takes streams already tokenized (the team's hits). */
interface ChunkTokens {
  (hit: ChunkHit): string[];
  add(known: ReadonlyMap<number, string[]> | undefined): void;
}

/**
 * Each chunk's token stream (tokenizeForSearch, as the index holds it), or that of a part of its text (`part`),
 * tokenized once per search.
 */
function chunkTokens(part: (text: string) => string = (text) => text): ChunkTokens {
  const cache = new Map<number, string[]>();
  const tokens = (hit: ChunkHit) => {
    let stream = cache.get(hit.chunkId);
    if (stream === undefined) {
      stream = tokenizeForSearch(part(hit.text)).split(" ");
      cache.set(hit.chunkId, stream);
    }
    return stream;
  };
  return Object.assign(tokens, {
    add(known: ReadonlyMap<number, string[]> | undefined) {
      for (const [chunkId, stream] of known ?? []) if (!cache.has(chunkId)) cache.set(chunkId, stream);
    },
  });
}

/**
 * The work the local leaders will need whatever the team's candidates add (issue 36): each of the leading local
 * sessions' best chunks tokenized for its passage and the feedback words, and every matching chunk's typed text for
 * its prompt, leaders first, one session at a time. A session the team's sessions push out of the pool was tokenized
 * for nothing; one that stays is not tokenized again after the team's answer, where its time was the search's.
 */
function* warmLeaders(
  hits: readonly ChunkHit[],
  poolSize: number,
  warm: { tokens: ((hit: ChunkHit) => string[]) | null; typed: ((hit: ChunkHit) => string[]) | null },
): Generator<void> {
  const bySession = groupBySession(hits);
  const leaders = [...bySession.values()]
    .map((sessionHits) => [...sessionHits].sort((a, b) => b.similarity - a.similarity))
    .sort((a, b) => (b[0]?.similarity ?? 0) - (a[0]?.similarity ?? 0))
    .slice(0, poolSize);
  const { tokens, typed } = warm;
  for (const sessionHits of leaders) {
    if (tokens !== null) {
      for (const hit of sessionHits.slice(0, PASSAGE_CHUNKS)) {
        tokens(hit);
        yield;
      }
    }
    if (typed !== null) {
      for (const hit of sessionHits) {
        typed(hit);
        yield;
      }
    }
  }
}

/**
 * Runs `work` a step at a time while `pending` is unsettled, each step after the event loop has read the sockets
 * (setImmediate), so the answer it waits for is taken as soon as it comes: the time this thread would spend idle
 * while the team server works. Stops at the first step after `pending` settles; what is left is done when needed.
 */
async function whileWaiting(pending: Promise<unknown>, work: Iterator<void>): Promise<void> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  pending.then(done, done);
  while (!settled) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (settled || work.next().done === true) return;
  }
}

/**
 * The query's feedback terms (RM3): the words its best chunks share beyond the query's own, weighted by how much
 * those chunks match and by rarity (terms in half the index or more drop out, as in the query itself); null when
 * there are none.
 */
function feedbackFor(
  weigh: (text: string) => WeightedQuery,
  queryTerms: readonly string[],
  hits: readonly ChunkHit[],
  tokens: (hit: ChunkHit) => string[],
): WeightedQuery | null {
  const top = [...hits].sort((a, b) => b.similarity - a.similarity).slice(0, FEEDBACK_DOCUMENTS);
  if (top.length === 0) return null;
  const candidates = feedbackTerms(
    top.map((hit) => ({ tokens: tokens(hit), weight: hit.similarity })),
    new Set(queryTerms),
    FEEDBACK_CANDIDATES,
  );
  if (candidates.length === 0) return null;
  // Tokens go back through the query path: a token the tokenizer would change comes back as another and drops out.
  const known = weigh(candidates.map((candidate) => candidate.term).join(" "));
  const idf = new Map(known.terms.map((term, i) => [term, known.idf[i] ?? 0]));
  const scored = candidates
    .filter((candidate) => idf.has(candidate.term))
    .map((candidate) => {
      const termIdf = idf.get(candidate.term) ?? 0;
      return { term: candidate.term, weight: candidate.weight * termIdf, idf: termIdf };
    })
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, FEEDBACK_TERMS);
  return feedbackQuery(scored);
}

/**
 * Strong matches: relevance (the percentage shown) reaches `search.minSimilarity`. The others are still offered,
 * beneath a "weak matches" line. Relevance alone decides, so recency and chain quality never move a session
 * across the line.
 */
export function isStrongMatch(result: RankedSession, search: Config["search"]): boolean {
  return result.components.relevance >= search.minSimilarity;
}
