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
  /**
   * How often the chunk holds each term the search scores by (TeamWeighing.scoredTerms; team schema 9, pushed with the
   * chunk), and how many tokens it has: it is scored from these instead of its text. Absent for a chunk pushed before.
   */
  counts?: { frequencies: ReadonlyMap<string, number>; tokens: number };
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
  /** The author's own tags and note on the session (team schema 6; the note redacted before it was pushed). */
  labels: string[];
  note: string | null;
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
  /** The terms the candidates are scored by, whose counts in each candidate the server is asked for. */
  scoredTerms?(statistics: CorpusStatistics): readonly string[];
  moreTerms?(chunks: readonly TeamChunkRow[], statistics: CorpusStatistics): string[];
  /**
   * The sessions whose rows are read, best first: those the search can rank (absent: every candidate's). A candidate
   * of a session not read is dropped as one the server does not show.
   */
  sessionsToRead?(chunks: readonly TeamChunkRow[], statistics: CorpusStatistics): readonly string[];
}

/** What fork detection asks the team side for (src/search/fork-detect.ts builds it). */
export interface TeamCandidatesRequest {
  /**
   * The words to send a server that keeps no statistics: those the local index would match on, or the whole query
   * (search/team-hits.ts). A function is called only then: working them out reads the local index, which a search of
   * a server with statistics (the words then come from `weighing`) need not wait for before it connects.
   */
  query: string | (() => string);
  /** The time bounds; the team side honours these two filters only. */
  filters: { since?: number; until?: number };
  /** Keep only projects whose identity contains this text (case-insensitive). */
  projectContains?: string;
  /** Weigh by the team's statistics (search/team-hits.ts teamWeighing). */
  weighing?: TeamWeighing;
  /**
   * Called once the candidates' statement, the team's longest wait, is handed to the connection (sent, or queued
   * behind a statement still running on a kept one): the search then reads the local index's own candidates while the
   * server works, not before the team's earlier round trips are done.
   */
  onAsked?: () => void;
}

/** The text a server without statistics is sent: the request's own, worked out now when it is a function. */
export function unweighedQuery(request: { query: string | (() => string) }): string {
  return typeof request.query === "string" ? request.query : request.query();
}

export interface TeamFetch {
  candidates: TeamCandidates | null;
  /** One line on why the team's results are missing (no password in it); null when they came. */
  notice: string | null;
}

/**
 * Fork detection's port to the team: started beside the local search, never rejects (whatever goes wrong is a notice).
 * The shells give it (src/team/search-port.ts teamCandidatesPort); fork detection never imports the team's code, so a
 * local search never loads the PostgreSQL client.
 */
export type TeamCandidatesPort = (request: TeamCandidatesRequest) => Promise<TeamFetch>;
