// The auto-memory topic files in the session index (the "deep" layer): rows of memory_topics with their
// contentless FTS5 rows (writes, each in the caller's short transaction), and BM25 search over every
// project's topics with the same calibrated 0..1 similarity as chunks (src/core/search/bm25-calibration.ts).
// Text arrives here already redacted (src/search/sync/sync-memory.ts).
import { calibrateBm25, referenceScore, selectDiscriminatingTerms } from "../../core/search/bm25-calibration.ts";
import { buildFtsMatch, selectQueryTerms } from "../../core/search/fts-query.ts";
import { tokenizeForSearch } from "../../core/search/tokens.ts";
import { databaseOf } from "./database.ts";
import type { SessionIndex } from "./session-index.ts";

export interface IndexedMemoryTopic {
  path: string;
  /** The project folder name under projects/ (e.g. `-home-user-app`). */
  project: string;
  name: string;
  description: string;
  type: string;
  body: string;
  mtimeMs: number;
  size: number;
}

export interface MemoryTopicHit {
  project: string;
  name: string;
  description: string;
  type: string;
  path: string;
  /** Calibrated BM25, 0..1, comparable across queries. */
  similarity: number;
}

export interface MemoryTopicSearchOptions {
  /** Project folder names to search; every project when absent. */
  projects?: readonly string[];
  limit: number;
}

/** What search indexes for a topic: its name, description and body as one code-aware token stream. */
export function memoryTopicTokens(topic: Pick<IndexedMemoryTopic, "name" | "description" | "body">): string {
  return tokenizeForSearch(`${topic.name}\n${topic.description}\n${topic.body}`);
}

export type MemoryTopicWriter = ReturnType<typeof createMemoryTopicWriter>;

export function createMemoryTopicWriter(index: SessionIndex) {
  const db = databaseOf(index);
  const statements = {
    stored: db.prepare("SELECT path, size, mtime_ms FROM memory_topics"),
    upsert: db.prepare(
      `INSERT INTO memory_topics(path, project, name, description, type, body, mtime_ms, size)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET project = excluded.project, name = excluded.name,
       description = excluded.description, type = excluded.type, body = excluded.body,
       mtime_ms = excluded.mtime_ms, size = excluded.size
       RETURNING id`,
    ),
    deleteFts: db.prepare("DELETE FROM memory_topics_fts WHERE rowid IN (SELECT id FROM memory_topics WHERE path = ?)"),
    insertFts: db.prepare("INSERT INTO memory_topics_fts(rowid, tokens) VALUES (?, ?)"),
    delete: db.prepare("DELETE FROM memory_topics WHERE path = ?"),
  };
  return {
    /** Every indexed topic file's size and mtime, by path (what decides whether it needs reading again). */
    stored(): Map<string, { size: number; mtimeMs: number }> {
      const rows = statements.stored.all() as Array<{ path: string; size: number; mtime_ms: number }>;
      return new Map(rows.map((row) => [row.path, { size: Number(row.size), mtimeMs: Number(row.mtime_ms) }]));
    },
    /** `tokens`: memoryTopicTokens(topic), computed by the caller outside its transaction. */
    put(topic: IndexedMemoryTopic, tokens = memoryTopicTokens(topic)): void {
      statements.deleteFts.run(topic.path);
      const { id } = statements.upsert.get(
        topic.path,
        topic.project,
        topic.name,
        topic.description,
        topic.type,
        topic.body,
        topic.mtimeMs,
        topic.size,
      ) as { id: number };
      statements.insertFts.run(id, tokens);
    },
    /** True when there was a row to delete. */
    remove(path: string): boolean {
      statements.deleteFts.run(path);
      return Number(statements.delete.run(path).changes) > 0;
    },
  };
}

/** The topics best matching `query` across projects, best first; [] for a query without searchable words. */
export function searchMemoryTopics(
  index: SessionIndex,
  query: string,
  options: MemoryTopicSearchOptions,
): MemoryTopicHit[] {
  const db = databaseOf(index);
  const terms = selectQueryTerms(tokenizeForSearch(query));
  if (terms.length === 0 || options.limit <= 0 || options.projects?.length === 0) return [];
  const total = Number((db.prepare("SELECT count(*) AS n FROM memory_topics").get() as { n: number }).n);
  if (total === 0) return [];
  const docsWithTerm = db.prepare("SELECT doc FROM memory_topics_vocab WHERE term = ?");
  const frequencies = terms.map((term) => Number((docsWithTerm.get(term) as { doc: number } | undefined)?.doc ?? 0));
  const reference = referenceScore(frequencies, total);
  const match = buildFtsMatch(selectDiscriminatingTerms(terms, frequencies, total));
  if (match === null) return [];
  const projects = options.projects ?? [];
  const where = projects.length === 0 ? "" : `AND m.project IN (${projects.map(() => "?").join(", ")})`;
  const rows = db
    .prepare(
      `SELECT m.project, m.name, m.description, m.type, m.path, -bm25(memory_topics_fts) AS score
       FROM memory_topics_fts JOIN memory_topics m ON m.id = memory_topics_fts.rowid
       WHERE memory_topics_fts MATCH ? ${where} ORDER BY score DESC, m.path LIMIT ?`,
    )
    .all(match, ...projects, options.limit) as unknown as Array<Omit<MemoryTopicHit, "similarity"> & { score: number }>;
  return rows.map(({ score, ...row }) => ({
    project: row.project,
    name: row.name,
    description: row.description,
    type: row.type,
    path: row.path,
    similarity: calibrateBm25(score, reference),
  }));
}
