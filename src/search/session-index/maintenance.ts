// What `ctx reindex` does to a sound index file as a whole before building it again: every table emptied in place (a
// running `ctx serve` keeps using the same file), then the file rewritten, which gives the pages back and fails on a
// damaged one.
import { databaseOf } from "./database.ts";
import { resetSchema, VACUUM_PENDING, vacuumFile } from "./schema.ts";
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

/**
 * The VACUUM after a sync that wrote the whole index (./schema.ts VACUUM_PENDING: a new or rebuilt file, or every file
 * read again, by newer rules or `--full`) and left nothing to read: the tables' pages were filled in the order the
 * sync wrote them, the indexes of uuids and paths in no order at all, so 1.2-1.3% of the file is free space inside
 * half-filled pages. Rewritten in key order the 10,000-session index of `pnpm bench scale` is 1.2% smaller (0.2 s),
 * the 100,000-session one 1.3% (3.6 s, with the WAL as large as the file until the checkpoint truncates it). Once: an
 * index that only grows fills its pages again by appends. false when nothing was pending, or when another connection
 * kept the VACUUM from running (busy): it stays pending for the next such sync. A reader during the checkpoint leaves
 * the WAL to a later reset (session-index.ts WAL_SIZE_LIMIT_BYTES). Never throws: the index is whole either way.
 */
export function vacuumAfterWholeSync(index: SessionIndex): boolean {
  const db = databaseOf(index);
  const busyTimeout = (db.prepare("PRAGMA busy_timeout").get() as { timeout: number }).timeout;
  try {
    if (db.prepare("SELECT 1 FROM meta WHERE key = ?").get(VACUUM_PENDING) === undefined) return false;
    // Only when the file is free now: a sync does not wait for another writer to pack pages.
    db.exec("PRAGMA busy_timeout = 0");
    vacuumFile(db);
    db.prepare("DELETE FROM meta WHERE key = ?").run(VACUUM_PENDING);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    return true;
  } catch {
    return false;
  } finally {
    db.exec(`PRAGMA busy_timeout = ${Number(busyTimeout)}`);
  }
}
