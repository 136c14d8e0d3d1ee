// What `ctx reindex` does to a sound index file as a whole before building it again: every table emptied in place (a
// running `ctx serve` keeps using the same file), then the file rewritten, which gives the pages back and fails on a
// damaged one.
import { databaseOf } from "./database.ts";
import { resetSchema, vacuumFile } from "./schema.ts";
import type { SessionIndex } from "./session-index.ts";

/** Drops every table of the index (vectors included) and creates them empty. */
export function emptyIndex(index: SessionIndex): void {
  resetSchema(databaseOf(index));
}

/**
 * VACUUM: rewrites the file, at the page size of a new index when no other process has it open (./schema.ts
 * PAGE_SIZE); throws when another connection is busy, or on a damaged page.
 */
export function vacuumIndex(index: SessionIndex): void {
  vacuumFile(databaseOf(index));
}
