// The session index's data model, shared by ingestion (src/search/sync/), the SQLite store (src/search/session-index/session-index.ts),
// ranking (src/core/search/ranking.ts), the embedders and the fork-detect surfaces. Plain data, no I/O.
// Times are epoch milliseconds; similarity values are calibrated to 0..1 whatever the retriever.
import type { SessionAnnotation } from "../library/annotation.ts";
import type { ScoreComponents } from "./fork-candidate-schema.ts";

/** Memory markers a chunk can carry (product document "Smart Fork Detection"); each boosts its session's score. */
export type MemoryType = "PATTERN" | "WORKING_SOLUTION" | "WAITING";

/** One indexed session (a main transcript; its subagent transcripts are folded into it). */
export interface IndexedSession {
  id: string;
  /** The project folder name under ~/.claude/projects (e.g. `-home-user-app`). */
  project: string;
  cwd: string | null;
  /** The main transcript's path. */
  path: string;
  gitBranch: string | null;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  /** The ai-title or summary record, else the first user prompt (trimmed). */
  title: string;
  tags: string[];
  memoryMarkers: MemoryType[];
  /** The person's star, labels and note (the session library); absent when there are none. */
  annotation?: SessionAnnotation;
}

/** One searchable chunk of a session: exchanges (a user turn kept with its reply), about 750 tokens. */
export interface IndexedChunk {
  sessionId: string;
  chunkIndex: number;
  /** Ordinal range of the session's messages this chunk covers (inclusive). */
  firstMessage: number;
  lastMessage: number;
  text: string;
  tokenCount: number;
  hasCode: boolean;
  languages: string[];
  memoryType: MemoryType | null;
}

/** A chunk that matched a query, with the retriever's calibrated similarity (0..1). */
export interface ChunkHit {
  /** The chunks table's rowid. */
  chunkId: number;
  sessionId: string;
  chunkIndex: number;
  similarity: number;
  memoryType: MemoryType | null;
  text: string;
  /** The uuid of the chunk's last transcript line (where `--resume-session-at` forks), when known. */
  lastUuid?: string | null;
}

/** Filters every search honours. */
export interface SearchFilters {
  /** Project folder name(s) to keep; absent = every project. */
  projects?: string[];
  since?: number;
  until?: number;
  /** Keep only sessions that started before this (a query's time window ends here: query-time.ts). */
  startedBefore?: number;
  /** Languages and memory markers (`IndexedSession.tags`), every one required. */
  tags?: string[];
  /** The person's labels (`ctx session tag`, normalised), every one required. */
  labels?: string[];
  /** Only sessions the person starred. */
  starred?: boolean;
  /** Keep only sessions with a matching chunk carrying one of these memory markers (`ctx search --marker`). */
  markers?: MemoryType[];
  /** Leave out sessions with a chunk matching any of these FTS5 phrases (query-negation.ts exclusionPhrase). */
  exclude?: string[];
}

/** The memory markers that lifted a session: each type once, with the best-matching chunk that carries it. */
export interface MarkerHit {
  type: MemoryType;
  chunkIndex: number;
}

export type { ScoreComponents };

/** Where a team session comes from (docs/team.md "Search"): absent on a session found only in the local index. */
export interface TeamOrigin {
  /** The author's handle in the team. */
  author: string;
  /** The project's identity on the team server (`github.com/acme/app[/<path>]`). */
  project: string;
  branch: string | null;
  /** Whether its redacted transcript is on the server, so `ctx fork` can fetch it. */
  forkable: boolean;
  /** Whether the same session id is in the local index (this machine has it). */
  local: boolean;
  /** The author's own tags and note on the session (pushed with it: docs/library.md "Team"). */
  labels?: string[];
  note?: string | null;
}

/** A session ranked for a query. */
export interface RankedSession {
  session: IndexedSession;
  /** relevance × the near-tie multiplier: the order (people see components.relevance as the percentage). */
  score: number;
  components: ScoreComponents;
  bestChunk: ChunkHit;
  /** The memory markers among the matching chunks (what `components.boost` comes from), strongest first. */
  markers: MarkerHit[];
  matchedChunks: number;
  totalChunks: number;
  /** Lineage (src/core/search/lineage.ts), when the caller read it. */
  lineage?: { parents: string[]; forks: string[]; chainQuality: number };
  /** Set when the session came from the team server. */
  team?: TeamOrigin;
  /** Its copies folded into it (duplicates, docs/search.md), when the caller read them. */
  alsoIn?: Array<{ sessionId: string; project: string }>;
}
