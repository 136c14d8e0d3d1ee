// The vector fill's own connection to the index file (src/search/embedders/fill-vectors.ts): not openSessionIndex,
// which creates or rebuilds the index's tables; the fill only adds vectors beside the chunks a sync wrote (any
// database with the contract's chunks table), waiting up to 5 s for another writer's lock.
import { DatabaseSync } from "./node-sqlite.ts";
import { chunksMissingVectors, countMissingVectors, ensureVectorTable, putVectors, type VectorRow } from "./vectors.ts";

const BUSY_TIMEOUT_MS = 5_000;

export interface VectorFillStore {
  /** How many chunks still lack a vector of `model`. */
  countMissing(model: string): number;
  /** Up to `limit` chunks with no vector of `model`, newest first. */
  missing(model: string, limit: number): Array<{ chunkId: number; text: string }>;
  /** Stores vectors in one short transaction; returns how many were written (see putVectors). */
  put(model: string, rows: readonly VectorRow[]): number;
  close(): void;
}

/** Opens the index file at `dbPath` for the fill, with the vector table made if it is not there yet. */
export function openVectorFillStore(dbPath: string): VectorFillStore {
  const db = new DatabaseSync(dbPath, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    ensureVectorTable(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    countMissing: (model) => countMissingVectors(db, model),
    missing: (model, limit) => chunksMissingVectors(db, model, limit),
    put: (model, rows) => putVectors(db, model, rows),
    close: () => db.close(),
  };
}
