// The team server's candidate chunks made into hits the local ranking takes as they are: each chunk scored with
// the local index's own BM25 (its terms, idf, mean chunk length and calibration reference: session-index bm25Model,
// core/search/bm25-score.ts), so a chunk scores exactly what it would score in the local index, and a teammate's
// session and a local one are ranked by the same kind of number (docs/team.md "Search").
import { calibrateBm25 } from "../core/search/bm25-calibration.ts";
import { type Bm25Model, ftsTokens, scoreBm25 } from "../core/search/bm25-score.ts";
import type { ChunkHit, IndexedSession, MemoryType, TeamOrigin } from "../core/search/model.ts";
import { tokenizeForSearch } from "../core/search/tokens.ts";
import type { TeamCandidates, TeamSessionRow } from "../team/search.ts";
import type { SessionIndex } from "./session-index/session-index.ts";

export interface TeamHits {
  hits: ChunkHit[];
  sessions: Map<string, { session: IndexedSession; totalChunks: number; chainQuality: number | null }>;
  origins: Map<string, TeamOrigin>;
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
  const model = index.bm25Model(query);
  const hits: ChunkHit[] = [];
  const sessions: TeamHits["sessions"] = new Map();
  const origins = new Map<string, TeamOrigin>();
  const localIds = index.getSessions([...candidates.sessions.keys()]);
  let nextId = -1;
  for (const chunk of candidates.chunks) {
    const row = candidates.sessions.get(chunk.sessionId);
    if (row === undefined) continue;
    const local = localIds.has(row.id);
    if (local && options.skipLocal) continue;
    const similarity = calibrateBm25(scoreBm25(ftsTokens(tokenizeForSearch(chunk.text)), model), model.reference);
    if (!(similarity > 0)) continue;
    hits.push({
      chunkId: nextId--,
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
      });
    }
  }
  return { hits: hits.sort((a, b) => b.similarity - a.similarity), sessions, origins };
}

/**
 * The words of the query worth sending to the server: those whose tokens the local index's BM25 would MATCH (its
 * discriminating terms within the postings budget, session-index planPostings; a word the index has never seen is
 * among them). Full-text search on the server then ranks only the rows of those words, not every chunk holding a
 * common one (bench/run.ts team-search measures the difference; docs/team.md has the runs). The whole query when
 * no word qualifies.
 */
export function teamQueryText(query: string, model: Bm25Model): string {
  const terms = new Set(model.terms);
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
