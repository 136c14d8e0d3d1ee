// The team server's candidate chunks made into hits the local ranking takes as they are: each chunk scored with
// BM25 over the team's own corpus (its statistics kept on the server, migration 5: src/team/term-stats.ts), with the
// terms, idf, mean chunk length and calibration reference the local index would derive from those statistics
// (core/search/bm25-score.ts), so a chunk scores the same for every member whatever their own index holds, and the
// calibrated similarity is the same kind of number as a local chunk's (docs/team.md "Search"). A server without
// statistics (schema older than 5) gets the local index's, as before.
import { calibrateBm25 } from "../core/search/bm25-calibration.ts";
import {
  type Bm25Model,
  type CorpusStatistics,
  ftsTokens,
  queryTermsOf,
  scoreBm25,
  scoreBm25Counts,
  weighWithStatistics,
} from "../core/search/bm25-score.ts";
import { FEEDBACK_CANDIDATES, FEEDBACK_DOCUMENTS, feedbackTerms } from "../core/search/feedback.ts";
import type { ChunkHit, IndexedSession, MemoryType, TeamOrigin } from "../core/search/model.ts";
import type { WeightedQuery } from "../core/search/passage.ts";
import { mentionsExcluded } from "../core/search/query-negation.ts";
import type {
  TeamCandidates,
  TeamCandidatesPort,
  TeamCandidatesRequest,
  TeamChunkRow,
  TeamFetch,
  TeamSessionRow,
  TeamWeighing,
} from "../core/search/team-candidates.ts";
import { tokenizeForSearch } from "../core/search/tokens.ts";
import { planTerms, type SessionIndex } from "./session-index/session-index.ts";

export interface TeamHits {
  hits: ChunkHit[];
  sessions: Map<string, { session: IndexedSession; totalChunks: number; chainQuality: number | null }>;
  origins: Map<string, TeamOrigin>;
  /** Weighs text by the team's statistics (the team's sessions' passages and feedback); absent without them. */
  weigh?: (text: string) => WeightedQuery;
  /** The team's statistics the weighing reads (the query's terms and the feedback words'); absent without them. */
  statistics?: CorpusStatistics;
  /** The token streams of the hits whose text the feedback words were picked from, by chunk id (tokenized once). */
  tokens: Map<number, string[]>;
}

const MEMORY_TYPES = new Set<string>(["PATTERN", "WORKING_SOLUTION", "WAITING"]);

/**
 * Scores the team's candidates for `query`. With `skipLocal`, a session the local index also holds (a member's own
 * pushed session) is left to the local results, so it is listed once. Team hits get negative chunk ids: they can
 * never be taken for a local chunk (ranking and caches key on the id).
 */
export function scoreTeamCandidates(
  index: SessionIndex,
  query: string,
  candidates: TeamCandidates,
  options: { skipLocal: boolean },
): TeamHits {
  const statistics = candidates.statistics ?? null;
  const model = statistics === null ? index.bm25Model(query) : teamBm25Model(query, statistics);
  const hits: ChunkHit[] = [];
  const sessions: TeamHits["sessions"] = new Map();
  const origins = new Map<string, TeamOrigin>();
  const tokens = new Map<number, string[]>();
  const localIds = index.getSessions([...candidates.sessions.keys()]);
  let nextId = -1;
  for (const chunk of candidates.chunks) {
    const row = candidates.sessions.get(chunk.sessionId);
    if (row === undefined) continue;
    const local = localIds.has(row.id);
    if (local && options.skipLocal) continue;
    const similarity = chunkSimilarity(chunk, model);
    if (!(similarity > 0)) continue;
    const chunkId = nextId--;
    const streamed = feedbackTokens.get(chunk);
    if (streamed !== undefined) tokens.set(chunkId, streamed);
    hits.push({
      chunkId,
      sessionId: chunk.sessionId,
      chunkIndex: chunk.chunkIndex,
      similarity,
      memoryType: chunk.memoryType,
      text: chunk.text,
      lastUuid: chunk.lastUuid,
    });
    if (!sessions.has(row.id)) {
      sessions.set(row.id, {
        session: localIds.get(row.id) ?? indexedSessionOf(row),
        totalChunks: row.totalChunks,
        chainQuality: row.chainQuality,
      });
      origins.set(row.id, {
        author: row.author,
        project: row.project,
        branch: row.branch,
        forkable: row.forkable,
        local,
        ...(row.labels.length === 0 ? {} : { labels: row.labels }),
        ...(row.note === null ? {} : { note: row.note }),
      });
    }
  }
  const sorted = hits.sort((a, b) => b.similarity - a.similarity);
  if (statistics === null) return { hits: sorted, sessions, origins, tokens };
  return {
    hits: sorted,
    sessions,
    origins,
    tokens,
    statistics,
    weigh: (text) => weighWithStatistics(text, statistics),
  };
}

/**
 * The query's BM25 model over a corpus's statistics: what the session index's bm25Model derives from its own (the
 * terms session-index planTerms scores, their idf, the mean tokens per chunk, the reference).
 */
export function teamBm25Model(query: string, statistics: CorpusStatistics): Bm25Model {
  const terms = queryTermsOf(query);
  if (terms.length === 0) return { terms: [], idf: [], averageTokens: 0, reference: 0 };
  const total = statistics.chunks;
  const frequencies = terms.map((term) => statistics.docs.get(term) ?? 0);
  const { plan, idf, weighing, serverTerms } = planTerms(terms, frequencies, total);
  return {
    terms: plan.terms,
    idf,
    averageTokens: total > 0 ? statistics.tokens / total : 0,
    reference: weighing.reference,
    ...(weighing.whole ? { serverTerms } : {}),
  };
}

/**
 * A team search weighed by the team's statistics (core/search/team-candidates.ts TeamWeighing): the query's terms are read
 * first, the server's full-text search is given the words the team's BM25 would match on, and, with `feedback`, the
 * statistics of the words the best team candidates share are read too, so search-sessions.ts weighs the feedback
 * words by the team's corpus (scope team) or by the local and the team's together (scope all). With `sessions`, only
 * the rows of the sessions the search can rank are read (sessionsToRead).
 */
export function teamWeighing(
  query: string,
  options: { feedback: boolean; sessions?: { count: number; excluded?: readonly string[] } },
): TeamWeighing {
  const sessions = options.sessions;
  return {
    terms: queryTermsOf(query),
    queryText: (statistics) => teamQueryText(query, teamBm25Model(query, statistics)),
    scoredTerms: (statistics) => teamBm25Model(query, statistics).terms,
    ...(options.feedback
      ? {
          moreTerms: (chunks: readonly TeamChunkRow[], statistics: CorpusStatistics) => {
            // As search-sessions.ts feedbackFor picks them: the best chunks by similarity, weighted by it.
            const model = teamBm25Model(query, statistics);
            const top = chunks
              .map((chunk) => ({ chunk, similarity: chunkSimilarity(chunk, model) }))
              .filter((scored) => scored.similarity > 0)
              .sort((a, b) => b.similarity - a.similarity)
              .slice(0, FEEDBACK_DOCUMENTS);
            const queryTerms = weighWithStatistics(query, statistics).terms;
            const candidates = feedbackTerms(
              top.map((scored) => ({ tokens: streamOf(scored.chunk), weight: scored.similarity })),
              new Set(queryTerms),
              FEEDBACK_CANDIDATES,
            );
            return candidates.length === 0 ? [] : queryTermsOf(candidates.map((candidate) => candidate.term).join(" "));
          },
        }
      : {}),
    ...(sessions === undefined
      ? {}
      : {
          sessionsToRead: (chunks: readonly TeamChunkRow[], statistics: CorpusStatistics) =>
            leadingSessions(chunks, teamBm25Model(query, statistics), sessions.count, sessions.excluded ?? []),
        }),
  };
}

/**
 * The first `count` sessions by their best candidate's similarity, the sessions whose candidates mention an excluded
 * word left out (./query-filters.ts withoutExcludedTeam drops them after the read): the search ranks only the leaders
 * by best chunk (search-sessions.ts passagePoolSize), and reading every candidate's session row (~300 of them) was a
 * cold search's longest wait after its candidates came (issue 36, docs/team.md "At scale").
 */
function leadingSessions(
  chunks: readonly TeamChunkRow[],
  model: Bm25Model,
  count: number,
  excluded: readonly string[],
): string[] {
  const out = new Set(
    excluded.length === 0
      ? []
      : chunks.filter((chunk) => mentionsExcluded(chunk.text, excluded)).map((chunk) => chunk.sessionId),
  );
  const best = new Map<string, number>();
  for (const chunk of chunks) {
    if (out.has(chunk.sessionId)) continue;
    const similarity = chunkSimilarity(chunk, model);
    if (similarity > (best.get(chunk.sessionId) ?? 0)) best.set(chunk.sessionId, similarity);
  }
  return [...best]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([sessionId]) => sessionId);
}

/**
 * A candidate's token stream as search-sessions.ts reads a hit's (tokenizeForSearch, split), remembered once the
 * feedback words are picked from it: the search's passages and feedback read the same chunks' streams again
 * (TeamHits.tokens), and tokenizing them twice cost a cold search ~8 ms.
 */
const feedbackTokens = new WeakMap<TeamChunkRow, string[]>();

function streamOf(chunk: TeamChunkRow): string[] {
  let stream = feedbackTokens.get(chunk);
  if (stream === undefined) {
    stream = tokenizeForSearch(chunk.text).split(" ");
    feedbackTokens.set(chunk, stream);
  }
  return stream;
}

/** A chunk's tokens, remembered for the search (the weighing and the scoring both read them). */
const chunkTokenCache = new WeakMap<TeamChunkRow, string[]>();

function chunkSimilarity(chunk: TeamChunkRow, model: Bm25Model): number {
  // Scored from the counts the server sent when they cover every term (what scoring the text would give: the same
  // tokens, counted when it was pushed), else from the text.
  const counts = chunk.counts;
  if (counts !== undefined && model.terms.every((term) => counts.frequencies.has(term))) {
    const score = scoreBm25Counts((term) => counts.frequencies.get(term) ?? 0, counts.tokens, model);
    return calibrateBm25(score, model.reference);
  }
  let tokens = chunkTokenCache.get(chunk);
  if (tokens === undefined) {
    tokens = ftsTokens(tokenizeForSearch(chunk.text));
    chunkTokenCache.set(chunk, tokens);
  }
  return calibrateBm25(scoreBm25(tokens, model), model.reference);
}

/**
 * The words of the query worth sending to the server: those whose tokens the local index's BM25 would MATCH (its
 * discriminating terms within the postings budget: `serverTerms` of session-index planTerms; a word the index has
 * never seen is among them). Full-text search on the server then ranks only the rows of those words, not every chunk
 * holding a common one (bench/run.ts team-search measures the difference; docs/team.md has the runs). The whole
 * query when no word qualifies.
 */
export function teamQueryText(query: string, model: Bm25Model): string {
  const terms = new Set(model.serverTerms ?? model.terms);
  if (terms.size === 0) return query;
  const words = query.split(/\s+/).filter((word) => word !== "");
  const kept = words.filter((word) => ftsTokens(tokenizeForSearch(word)).some((token) => terms.has(token)));
  return kept.length > 0 ? kept.join(" ") : query;
}

/** A team session in the local model's shape: no folder or transcript on this machine (`ctx fork` fetches it). */
function indexedSessionOf(row: TeamSessionRow): IndexedSession {
  const started = row.startedAt ?? row.endedAt ?? 0;
  return {
    id: row.id,
    project: row.project,
    cwd: null,
    path: "",
    gitBranch: row.branch,
    createdAt: started,
    updatedAt: row.endedAt ?? started,
    messageCount: row.messageCount,
    title: row.title,
    tags: [],
    memoryMarkers: row.memoryMarkers.filter((marker): marker is MemoryType => MEMORY_TYPES.has(marker)),
  };
}

/**
 * A team fetch under way (./fork-detect.ts): its result, and `handedOver`, settled once its candidates' statement is
 * handed to the connection (sent, or queued behind a statement still running on a kept one) or the fetch ended.
 */
export interface TeamAsk {
  fetched: Promise<TeamFetch>;
  handedOver: Promise<unknown>;
}

/** Asks the team through `port`, with the request's `onAsked` kept for `handedOver`. */
export function askTeam(port: TeamCandidatesPort, request: Omit<TeamCandidatesRequest, "onAsked">): TeamAsk {
  let markHandedOver = () => {};
  const asked = new Promise<void>((resolve) => {
    markHandedOver = resolve;
  });
  const fetched = port({ ...request, onAsked: () => markHandedOver() });
  const handedOver = Promise.race([asked, fetched]);
  // Not awaited for a widened search's second fetch; a port that rejects is reported through `fetched`.
  handedOver.catch(() => {});
  return { fetched, handedOver };
}
