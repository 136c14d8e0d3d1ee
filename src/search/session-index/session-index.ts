// The session index (SQLite through node:sqlite): opening it safely (WAL, busy timeout, foreign keys,
// 0600 file in a 0700 folder, corruption detected up front) and reading it: stats, sessions, BM25 chunk
// search with a calibrated 0..1 similarity (src/core/search/bm25-calibration.ts). Writers: ./writer.ts.
// Past 300 lines because the open, the corruption guard and every read share the handle and its prepared statements;
// rows read whole are ./stored-rows.ts, the outbox ./team-outbox.ts. The scale work (issue 36) changes these tables and
// is where this file splits by table.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { StatementSync } from "node:sqlite";
import {
  BM25_K1,
  calibrateBm25,
  selectDiscriminatingTerms,
  type TermWeighing,
  weighTerms,
} from "../../core/search/bm25-calibration.ts";
import { BM25_B, type Bm25Model, type CorpusStatistics } from "../../core/search/bm25-score.ts";
import { buildFtsMatch, selectQueryTerms } from "../../core/search/fts-query.ts";
import type { ChunkHit, IndexedSession, MemoryType, SearchFilters } from "../../core/search/model.ts";
import type { WeightedQuery } from "../../core/search/passage.ts";
import { tokenizeForSearch } from "../../core/search/tokens.ts";
import { CtxError } from "../../errors.ts";
import { readCount } from "./counts-schema.ts";
import { attachDatabase, databaseOf } from "./database.ts";
import { DatabaseSync, fts5MissingError } from "./node-sqlite.ts";
import { filterClause, SESSION_SELECT, type SessionRow, sessionFromRow } from "./rows.ts";
import { ensureSchema, readSchemaVersion, SCHEMA_VERSION, setNewFilePageSize, UPGRADED_IN_PLACE } from "./schema.ts";
import { readStoredText } from "./text-dictionary.ts";
import { readUuid } from "./uuid-value.ts";

export interface IndexStats {
  sessions: number;
  chunks: number;
  projects: number;
  /** The database file plus its WAL. */
  bytes: number;
  lastSyncAt: number | null;
  vectors: number;
}

export interface SessionIndex {
  readonly path: string;
  /**
   * The schema version of the tables this open dropped because another version of ctx made them (0: unknown), or
   * null. The index is then empty, and the next sync builds it again.
   */
  readonly rebuiltFrom: number | null;
  close(): void;
  stats(): IndexStats;
  /** How many sessions the index holds (from its running counts: ./counts-schema.ts). */
  sessionCount(): number;
  /** When the last sync finished (epoch ms), or null before the first. */
  lastSyncAt(): number | null;
  /** Every indexed project (Claude Code's project folder names), sorted; kept until the database changes. */
  projects(): string[];
  searchChunks(query: string, filters: SearchFilters, limit: number): ChunkHit[];
  /** The query's discriminating terms with their idf and the similarity reference, as searchChunks weighs them. */
  weighQuery(query: string): WeightedQuery;
  /**
   * What searchChunks scores a chunk with (its MATCH terms, their idf, the mean tokens per chunk, the reference),
   * so a chunk from elsewhere (the team server) scores what it would score here (core/search/bm25-score.ts).
   */
  bm25Model(query: string): Bm25Model;
  /** This index's BM25 statistics for `terms` (its chunks, their tokens, each term's chunks), as FTS5 counts them. */
  termStatistics(terms: readonly string[]): CorpusStatistics;
  getSession(id: string): IndexedSession | null;
  getSessions(ids: readonly string[]): Map<string, IndexedSession>;
  chunkCount(sessionId: string): number;
  /** The most recently updated sessions (for "no good match: here are your recent sessions"). */
  recentSessions(limit: number, filters?: SearchFilters): IndexedSession[];
  /**
   * Runs `work` in one write transaction (BEGIN IMMEDIATE: another writer is waited for up to the busy timeout) and
   * commits it; when `work` throws, rolls back and throws that. `work` is synchronous: a transaction is never held
   * open across an await, where another sync in this process would block the event loop waiting for the lock.
   */
  writeTransaction<T>(work: () => T): T;
}

const CORRUPT_HINT = "run `ctx reindex`";
/**
 * How long a writer waits for another's transaction (WAL readers never wait). Two syncs (`ctx index` and the
 * server's watcher) may run at once: each holds the write lock for one file's inserts, seconds at most.
 */
const BUSY_TIMEOUT_MS = 15_000;
/** What a writing connection leaves of the WAL file after a checkpoint resets it (SQLite's journal_size_limit). */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
const SQLITE_BUSY = 5;
/** SQLITE_CORRUPT and SQLITE_NOTADB (primary result codes). */
const CORRUPT_CODES = new Set([11, 26]);

export function isCorruptionError(error: unknown): boolean {
  const code = (error as { errcode?: number } | null)?.errcode;
  return typeof code === "number" && CORRUPT_CODES.has(code & 0xff);
}

export function openSessionIndex(dbPath: string, options: { readonly?: boolean } = {}): SessionIndex {
  const readOnly = options.readonly === true;
  if (readOnly && !existsSync(dbPath)) {
    throw new CtxError("NOT_FOUND", `there is no session index at ${dbPath} yet`, { hint: "run `ctx index`" });
  }
  if (!readOnly) preparePrivateFile(dbPath);
  let db: DatabaseSync;
  let rebuiltFrom: number | null = null;
  try {
    db = new DatabaseSync(dbPath, { readOnly, enableForeignKeyConstraints: true, timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw corruptError(dbPath, error);
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (readOnly) {
      const version = readSchemaVersion(db);
      if (version !== null && Number.isSafeInteger(version) && version >= 1 && version !== SCHEMA_VERSION) {
        throw new CtxError(
          "STATE_UNSUPPORTED_VERSION",
          `the session index ${dbPath} has format ${version}, and this version of ctx reads format ${SCHEMA_VERSION}`,
          {
            hint: UPGRADED_IN_PLACE.includes(version)
              ? "run `ctx index`: it brings the index up to date in place, without reading a transcript again"
              : "run `ctx index`: it rebuilds the index from your transcripts",
          },
        );
      }
      if (version !== SCHEMA_VERSION) {
        throw new CtxError("INDEX_CORRUPT", `${dbPath} is not a ctx session index of schema ${SCHEMA_VERSION}`, {
          hint: CORRUPT_HINT,
        });
      }
    } else {
      // A new file's page size is set by its first write, which enableWal makes.
      setNewFilePageSize(db);
      enableWal(db);
      // NORMAL is durable in WAL mode except for the last commits before a power loss; a sync redoes them.
      db.exec("PRAGMA synchronous = NORMAL");
      // A WAL grown large (a first build's batches, the VACUUM after it: as large as the file) is cut back to this at
      // its next reset, so a long-running `ctx serve` that read during the checkpoint does not keep it on disk.
      db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
      rebuiltFrom = ensureSchema(db);
    }
  } catch (error) {
    db.close();
    if (error instanceof CtxError) throw error;
    throw fts5MissingError(error) ?? (isCorruptionError(error) ? corruptError(dbPath, error) : error);
  }
  return createSessionIndex(db, dbPath, rebuiltFrom);
}

/**
 * Switching a new index to WAL needs an exclusive lock, and SQLite answers "database is locked" at once instead of
 * waiting (no busy handler there): two processes opening a new index together (`ctx index` and the server's
 * watcher) retry until the busy timeout. WAL is recorded in the file, so later opens only read the mode.
 */
function enableWal(db: DatabaseSync): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      const row = db.prepare("PRAGMA journal_mode").get() as { journal_mode?: string } | undefined;
      if (row?.journal_mode !== "wal") db.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      const code = (error as { errcode?: number } | null)?.errcode;
      if (code === undefined || (code & 0xff) !== SQLITE_BUSY || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

function corruptError(dbPath: string, cause: unknown): CtxError {
  return new CtxError("INDEX_CORRUPT", `the session index ${dbPath} is damaged or not a SQLite database`, {
    hint: CORRUPT_HINT,
    cause,
  });
}

/** The folder 0700 and the file 0600 before SQLite creates it (its WAL and SHM files copy the file's mode). */
function preparePrivateFile(dbPath: string): void {
  mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
  if (!existsSync(dbPath)) closeSync(openSync(dbPath, "a", 0o600));
  if ((statSync(dbPath).mode & 0o077) !== 0) chmodSync(dbPath, 0o600);
}

function createSessionIndex(db: DatabaseSync, path: string, rebuiltFrom: number | null): SessionIndex {
  const countChunks = db.prepare("SELECT count(*) AS n FROM chunks WHERE session_id = ?");
  const selectText = db.prepare("SELECT text FROM chunks WHERE id = ?");
  // A hit's text, read when first asked for (withStoredText): a damaged page is INDEX_CORRUPT there too.
  const readText = (id: number): StoredText => {
    try {
      return (selectText.get(id) as { text: StoredText } | undefined)?.text ?? null;
    } catch (error) {
      throw asIndexError(index, error);
    }
  };
  const selectSession = db.prepare(`${SESSION_SELECT} WHERE s.id = ?`);
  const docsWithTerm = db.prepare("SELECT doc FROM chunks_vocab WHERE term = ?");
  const selectProjects = db.prepare("SELECT key FROM counts WHERE kind = 'project' AND n > 0 ORDER BY key");

  // Chunk count and document frequencies, cached until the database changes (data_version moves when another
  // connection commits, total_changes() when this one writes): a vocabulary lookup reads the term's whole
  // posting list, a real cost per common term at 250,000 chunks.
  const dataVersion = db.prepare(
    "SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes() AS v",
  );
  let cache: { version: string; total: number; documentFrequency: Map<string, number> } | null = null;
  const corpusStatistics = (terms: readonly string[]) => {
    const version = String((dataVersion.get() as { v: string }).v);
    if (cache === null || cache.version !== version) {
      cache = { version, total: readCount(db, "total", "chunks"), documentFrequency: new Map() };
    }
    const { documentFrequency } = cache;
    const frequencies = terms.map((term) => {
      let n = documentFrequency.get(term);
      if (n === undefined) {
        n = Number((docsWithTerm.get(term) as { doc: number } | undefined)?.doc ?? 0);
        documentFrequency.set(term, n);
      }
      return n;
    });
    return { total: cache.total, frequencies };
  };

  /** The query's terms weighed by the index's statistics, and the terms searchChunks scores; null: nothing to match. */
  const planQuery = (query: string) => {
    const terms = selectQueryTerms(tokenizeForSearch(query));
    if (terms.length === 0) return null;
    const { total, frequencies } = corpusStatistics(terms);
    return planTerms(terms, frequencies, total);
  };
  let termInstances: StatementSync | null = null;
  // Each chunk's count of a term, from FTS5's own postings (a temporary fts5vocab table: no schema change).
  const instancesOf = (term: string) => {
    if (termInstances === null) {
      db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_instance USING fts5vocab(main, chunks_fts, instance)");
      termInstances = db.prepare("SELECT doc, count(*) AS n FROM temp.chunks_instance WHERE term = ? GROUP BY doc");
    }
    return termInstances.all(term) as Array<{ doc: number; n: number }>;
  };
  const selectSizes = db.prepare("SELECT id, sz FROM chunks_fts_docsize WHERE id IN (SELECT value FROM json_each(?))");
  /**
   * searchChunks over a small index with a common query term (weighTerms): every chunk holding a term, scored as
   * FTS5's bm25() scores (k1, b, its token counts and mean) but with the smoothed idf.
   */
  const searchWhole = (terms: readonly string[], idf: readonly number[], filters: SearchFilters, limit: number) => {
    const frequencies = new Map<number, number[]>();
    terms.forEach((term, i) => {
      for (const { doc, n } of instancesOf(term)) {
        const counts = frequencies.get(Number(doc)) ?? new Array<number>(terms.length).fill(0);
        counts[i] = Number(n);
        frequencies.set(Number(doc), counts);
      }
    });
    if (frequencies.size === 0) return [];
    const ids = JSON.stringify([...frequencies.keys()]);
    const average = readAverageTokens(db);
    const scores = new Map<number, number>();
    for (const row of selectSizes.all(ids) as Array<{ id: number; sz: Uint8Array }>) {
      const length = readVarint(row.sz, 0)[0];
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / (average > 0 ? average : Math.max(1, length)));
      let score = 0;
      (frequencies.get(Number(row.id)) ?? []).forEach((f, i) => {
        if (f > 0) score += (idf[i] ?? 0) * ((f * (BM25_K1 + 1)) / (f + norm));
      });
      scores.set(Number(row.id), score);
    }
    const where = filterClause(filters);
    const rows = db
      .prepare(
        `SELECT c.id, c.session_id, c.chunk_index, c.memory_type, c.last_uuid FROM chunks c
           JOIN sessions s ON s.id = c.session_id WHERE c.id IN (SELECT value FROM json_each(?)) ${where.sql}`,
      )
      .all(ids, ...where.params) as unknown as HitRow[];
    for (const row of rows) row.score = scores.get(Number(row.id)) ?? 0;
    return rows.sort((a, b) => b.score - a.score || Number(b.id) - Number(a.id)).slice(0, limit);
  };

  // Every search asks for the projects (to match --project) and the session count: read from the counts, and the
  // list kept until the database changes, as the corpus statistics are.
  let projectList: { version: string; projects: string[] } | null = null;
  const projects = () => {
    const version = String((dataVersion.get() as { v: string }).v);
    if (projectList === null || projectList.version !== version) {
      const rows = selectProjects.all() as Array<{ key: string }>;
      projectList = { version, projects: rows.map((row) => String(row.key)) };
    }
    return [...projectList.projects];
  };

  const index: SessionIndex = {
    path,
    rebuiltFrom,
    close: () => db.close(),
    stats: () => readStats(db, path, projects().length),
    sessionCount: () => readCount(db, "total", "sessions"),
    getSession(id) {
      const row = selectSession.get(id) as SessionRow | undefined;
      return row === undefined ? null : sessionFromRow(row);
    },
    getSessions(ids) {
      const sessions = new Map<string, IndexedSession>();
      for (const id of new Set(ids)) {
        const session = index.getSession(id);
        if (session !== null) sessions.set(id, session);
      }
      return sessions;
    },
    chunkCount: (sessionId) => Number((countChunks.get(sessionId) as { n: number }).n),
    lastSyncAt: () => readLastSyncAt(db),
    projects,
    writeTransaction(work) {
      db.exec("BEGIN IMMEDIATE");
      try {
        const result = work();
        db.exec("COMMIT");
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec("ROLLBACK");
        throw error;
      }
    },
    recentSessions(limit, filters = {}) {
      const where = filterClause(filters);
      const rows = db
        .prepare(`${SESSION_SELECT} WHERE 1 ${where.sql} ORDER BY s.updated_at DESC LIMIT ?`)
        .all(...where.params, Math.max(0, limit)) as unknown as SessionRow[];
      return rows.map(sessionFromRow);
    },
    weighQuery(query) {
      const terms = selectQueryTerms(tokenizeForSearch(query));
      if (terms.length === 0) return { terms: [], idf: [], reference: 0 };
      const { total, frequencies } = corpusStatistics(terms);
      const { terms: kept, idf, reference } = weighTerms(terms, frequencies, total);
      return { terms: kept, idf, reference };
    },
    termStatistics(terms) {
      const { total, frequencies } = corpusStatistics(terms);
      return {
        chunks: total,
        tokens: readAverageTokens(db) * total,
        docs: new Map(terms.map((term, i) => [term, frequencies[i] ?? 0])),
      };
    },
    bm25Model(query) {
      const planned = planQuery(query);
      if (planned === null) return { terms: [], idf: [], averageTokens: 0, reference: 0 };
      const { plan, idf, weighing, serverTerms } = planned;
      return {
        terms: plan.terms,
        idf,
        averageTokens: readAverageTokens(db),
        reference: weighing.reference,
        ...(weighing.whole ? { serverTerms } : {}),
      };
    },
    searchChunks(query, filters, limit) {
      const planned = limit <= 0 ? null : planQuery(query);
      if (planned === null) return [];
      const { plan, weighing, idf } = planned;
      const hits = (rows: HitRow[]) =>
        rows.map((row) =>
          withStoredText(
            {
              chunkId: Number(row.id),
              sessionId: row.session_id,
              chunkIndex: Number(row.chunk_index),
              similarity: calibrateBm25(row.score, weighing.reference),
              memoryType: row.memory_type as MemoryType | null,
              lastUuid: readUuid(row.last_uuid),
            },
            () => readText(Number(row.id)),
            db,
          ),
        );
      if (weighing.whole) return hits(searchWhole(plan.terms, idf, filters, limit));
      const match = buildFtsMatch(plan.terms);
      if (match === null) return [];
      const where = filterClause(filters);
      // Unfiltered: FTS5 ranks and limits by itself (its ORDER BY rank fast path); filtered: join, then rank.
      // Every term common: FTS5 streams the newest postings (ORDER BY rowid DESC stops at the LIMIT), ranked here.
      const sql =
        where.sql !== ""
          ? `SELECT c.id, c.session_id, c.chunk_index, c.memory_type, c.last_uuid, -bm25(chunks_fts) AS score
               FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN sessions s ON s.id = c.session_id
               WHERE chunks_fts MATCH ? ${where.sql} ORDER BY score DESC LIMIT ?`
          : `SELECT c.id, c.session_id, c.chunk_index, c.memory_type, c.last_uuid, hit.score FROM
               (SELECT rowid, -bm25(chunks_fts) AS score FROM chunks_fts WHERE chunks_fts MATCH ?
                ${plan.newestPostings === null ? "ORDER BY rank LIMIT ?" : "ORDER BY rowid DESC LIMIT ?"}) hit
               JOIN chunks c ON c.id = hit.rowid ORDER BY hit.score DESC LIMIT ?`;
      const params = where.sql !== "" ? [match, ...where.params, limit] : [match, plan.newestPostings ?? limit, limit];
      return hits(db.prepare(sql).all(...params) as unknown as HitRow[]);
    },
  };
  attachDatabase(index, db);
  return guardAgainstCorruption(index);
}

/**
 * The hit with its `text` read from the index when first asked for: of a search's hundreds of candidate chunks only
 * the leaders' texts are read (passages, snippets, feedback), and a stored text may be deflated. A chunk deleted
 * since (a sync in another process) reads as "".
 */
function withStoredText(hit: Omit<ChunkHit, "text">, stored: () => StoredText, db: DatabaseSync): ChunkHit {
  let text: string | undefined;
  return Object.defineProperty(hit, "text", {
    enumerable: true,
    get: () => {
      text ??= readStoredText(db, stored());
      return text;
    },
  }) as ChunkHit;
}

/**
 * The methods that query the database answer a damaged page with INDEX_CORRUPT ("run ctx reindex"). Not
 * writeTransaction: what its work throws reaches the caller as it was (a sync tells a database error by its errcode).
 */
function guardAgainstCorruption(index: SessionIndex): SessionIndex {
  const target = index as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(target)) {
    if (typeof value !== "function" || key === "close" || key === "writeTransaction") continue;
    const method = value as (...args: unknown[]) => unknown;
    target[key] = (...args: unknown[]) => {
      try {
        return method(...args);
      } catch (error) {
        throw asIndexError(index, error);
      }
    };
  }
  return index;
}

/**
 * A query that failed with SQLITE_CORRUPT/NOTADB becomes INDEX_CORRUPT, with what `PRAGMA quick_check` found;
 * any other error is returned as it was.
 */
export function asIndexError(index: SessionIndex, error: unknown): unknown {
  if (error instanceof CtxError || !isCorruptionError(error)) return error;
  const problems = integrityProblems(index);
  const found = problems.length > 0 ? `: ${problems[0]}` : "";
  return new CtxError("INDEX_CORRUPT", `the session index ${index.path} is damaged${found}`, {
    hint: `${CORRUPT_HINT} (the damaged file is moved aside and the index built again)`,
    cause: error,
  });
}

/** `PRAGMA quick_check`: [] when the file's structure is sound, else the first problems SQLite reports. */
export function integrityProblems(index: SessionIndex, max = 5): string[] {
  try {
    const rows = databaseOf(index).prepare(`PRAGMA quick_check(${max})`).all() as Array<{ quick_check?: string }>;
    const lines = rows.map((row) => String(row.quick_check ?? Object.values(row)[0] ?? ""));
    return lines.length === 1 && lines[0] === "ok" ? [] : lines;
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

/**
 * FTS5 scores every posting of every MATCH term before it can rank, so a query's cost is the sum of its terms'
 * document frequencies (over 100,000 each for common words at 10,000 sessions). Candidates come from the
 * rarest terms while their postings fit the budget (a session worth offering holds the query's rare words; the
 * common ones still count in the passage score, which weighs every term). When even the rarest term is
 * common, only its newest NEWEST_POSTINGS postings are read and ranked (recency decides among common words).
 */
export const POSTINGS_BUDGET = 40_000;
export const NEWEST_POSTINGS = 8_000;

export function planPostings(
  terms: readonly string[],
  docsWithEachTerm: readonly number[],
  totalDocs: number,
): { terms: string[]; newestPostings: number | null } {
  const order = terms.map((term, i) => ({ term, df: docsWithEachTerm[i] ?? 0 })).sort((a, b) => a.df - b.df);
  const chosen: string[] = [];
  let postings = 0;
  for (const { term, df } of order) {
    if (chosen.length > 0 && postings + df > POSTINGS_BUDGET) break;
    chosen.push(term);
    postings += df;
  }
  const rarest = order[0]?.df ?? 0;
  return { terms: chosen, newestPostings: rarest > POSTINGS_BUDGET && totalDocs > 0 ? NEWEST_POSTINGS : null };
}

/**
 * A query's terms weighed by a corpus's statistics (the local index's, or the team's: team-hits.ts) as searchChunks
 * scores them: the weighing (core/search/bm25-calibration.ts weighTerms), the terms a chunk is scored on (within the
 * postings budget; every term the corpus holds when it is scored whole) and their idf.
 */
export function planTerms(
  terms: readonly string[],
  frequencies: readonly number[],
  total: number,
): {
  weighing: TermWeighing;
  plan: { terms: string[]; newestPostings: number | null };
  idf: number[];
  serverTerms: string[];
} {
  const weighing = weighTerms(terms, frequencies, total);
  const documents = (term: string) => frequencies[terms.indexOf(term)] ?? 0;
  // Scored whole, the weighing kept every term; else its terms are already the discriminating ones.
  const discriminating = weighing.whole ? selectDiscriminatingTerms(terms, frequencies, total) : weighing.terms;
  const postings = planPostings(discriminating, discriminating.map(documents), total);
  const plan = weighing.whole
    ? { terms: weighing.terms.filter((term) => documents(term) > 0), newestPostings: null }
    : postings;
  const idf = plan.terms.map((term) => weighing.idf[weighing.terms.indexOf(term)] ?? 0);
  return { weighing, plan, idf, serverTerms: postings.terms };
}

/** chunks.text: plain or packed (./chunk-text.ts). */
type StoredText = string | Uint8Array | null;

interface HitRow {
  id: number;
  session_id: string;
  chunk_index: number;
  memory_type: string | null;
  /** As stored: ./uuid-value.ts readUuid reads it. */
  last_uuid: string | Uint8Array | null;
  score: number;
}

/**
 * FTS5's mean tokens per row, as its bm25() reads it: the averages record (chunks_fts_data row 1) holds the row
 * count and each column's token total as SQLite varints. 0 when the table is empty.
 */
export function readAverageTokens(db: DatabaseSync): number {
  const row = db.prepare("SELECT block FROM chunks_fts_data WHERE id = 1").get() as { block?: Uint8Array } | undefined;
  const block = row?.block;
  if (!(block instanceof Uint8Array)) return 0;
  const [rows, at] = readVarint(block, 0);
  const [tokens] = readVarint(block, at);
  return rows > 0 ? tokens / rows : 0;
}

/** SQLite's varint: big-endian 7-bit groups, the high bit set on all but the last; a 9th byte gives all 8 bits. */
function readVarint(bytes: Uint8Array, start: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = bytes[start + i] ?? 0;
    if (i === 8) return [value * 256 + byte, start + 9];
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, start + i + 1];
  }
  return [value, start + 9];
}

function readLastSyncAt(db: DatabaseSync): number | null {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'last_sync_at'").get() as { value: string } | undefined;
  const at = Number(row?.value);
  return row === undefined || !Number.isFinite(at) ? null : at;
}

/** The figures from the running counts (./counts-schema.ts): a few rows, whatever the index's size. */
function readStats(db: DatabaseSync, path: string, projects: number): IndexStats {
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) bytes += statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  return {
    sessions: readCount(db, "total", "sessions"),
    chunks: readCount(db, "total", "chunks"),
    projects,
    bytes,
    lastSyncAt: readLastSyncAt(db),
    vectors: readCount(db, "total", "vectors"),
  };
}
