// What `ctx reindex` does to a sound index file as a whole before building it again: every table emptied in place (a
// running `ctx serve` keeps using the same file), then the file rewritten, which gives the pages back and fails on a
// damaged one.
import { databaseOf } from "./database.ts";
import { resetSchema } from "./schema.ts";
import type { SessionIndex } from "./session-index.ts";

/** Drops every table of the index (vectors included) and creates them empty. */
export function emptyIndex(index: SessionIndex): void {
  resetSchema(databaseOf(index));
}

/** VACUUM: rewrites the file; throws when another connection is busy, or on a damaged page. */
export function vacuumIndex(index: SessionIndex): void {
  databaseOf(index).exec("VACUUM");
}
