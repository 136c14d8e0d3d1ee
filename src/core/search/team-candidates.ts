// The team server's candidates as plain data: what the team side of a search hands fork detection (the port,
// src/search/fork-detect.ts ForkDetectOptions.teamCandidates) and what src/search/team-hits.ts scores.
import type { CorpusStatistics } from "./bm25-score.ts";

/** A team chunk the server's full-text search proposed (text as pushed: redacted). */
export interface TeamChunkRow {
  sessionId: string;
  source: string;
  chunkIndex: number;
  text: string;
  memoryType: "PATTERN" | "WORKING_SOLUTION" | "WAITING" | null;
  lastUuid: string | null;
}

/** A team session with what the results show about it. */
export interface TeamSessionRow {
  id: string;
  /** The author's handle in the team. */
  author: string;
  /** The project's identity: `github.com/acme/app`, plus `/<path>` for a folder inside the repository. */
  project: string;
  title: string;
  branch: string | null;
  startedAt: number | null;
  endedAt: number | null;
  messageCount: number;
  memoryMarkers: string[];
  forkable: boolean;
  /** How many chunks the session has on the server (for the chunk ratio). */
  totalChunks: number;
  /** From the pushed lineage, when it says. */
  chainQuality: number | null;
}

export interface TeamCandidates {
  chunks: TeamChunkRow[];
  sessions: Map<string, TeamSessionRow>;
  /**
   * The team's BM25 statistics (migration 5, ./term-stats.ts) for the terms the request's weighing asked about;
   * null when the request had none, or the server keeps none (a schema older than 5).
   */
  statistics?: CorpusStatistics | null;
}

/**
 * How the searching machine weighs a search by the team's own statistics (src/search/team-hits.ts teamWeighing):
 * the terms read first, the text the server's full-text search is then given, and the terms to read once the
 * candidates are in (the feedback words their best chunks share).
 */
export interface TeamWeighing {
  terms: readonly string[];
  queryText(statistics: CorpusStatistics): string;
  moreTerms?(chunks: readonly TeamChunkRow[], statistics: CorpusStatistics): string[];
}
