// The node:sqlite handle behind an open SessionIndex, for the modules of this folder only: everything outside
// src/search/session-index/ reads and writes the index through their typed functions and methods, so a change of the
// index's tables is a change of this folder alone (.dependency-cruiser.cjs `session-index-database-inside`; a test
// may read the tables through it for its assertions).
import type { DatabaseSync } from "node:sqlite";

const databases = new WeakMap<object, DatabaseSync>();

/** Records `db` as the database behind `index` (openSessionIndex, once per open). */
export function attachDatabase(index: object, db: DatabaseSync): void {
  databases.set(index, db);
}

/** The database behind an index that openSessionIndex returned. */
export function databaseOf(index: object): DatabaseSync {
  const db = databases.get(index);
  if (db === undefined) throw new TypeError("not a session index that openSessionIndex opened");
  return db;
}
