// Finding a session the person names by its id or the start of it (`ctx show 4d5611e5`), and the transcript files
// the index keeps for a session besides its main one (its subagents'), for what shows a session whole.
import { databaseOf } from "./database.ts";
import type { SessionIndex } from "./session-index.ts";

/**
 * The sessions whose id is `id` or starts with it: the exact one alone when it is there, else at most `limit`
 * (callers ask for 2 to tell one from several). `%`, `_` and `\` in `id` are matched as themselves.
 */
export function findSessionIds(index: SessionIndex, id: string, limit = 2): string[] {
  const db = databaseOf(index);
  const exact = db.prepare("SELECT id FROM sessions WHERE id = ?").get(id) as { id: string } | undefined;
  if (exact !== undefined) return [exact.id];
  if (id === "") return [];
  // A range of the primary key (every id starting with `id` sorts from `id` to `id` + the last code point), so the
  // lookup reads the few ids there, not each of 100,000 sessions as `substr(id, …) = ?` alone would.
  const rows = db
    .prepare(
      "SELECT id FROM sessions WHERE id >= ?1 AND id < ?1 || char(1114111) AND substr(id, 1, ?2) = ?1 ORDER BY id LIMIT ?3",
    )
    .all(id, [...id].length, Math.max(1, Math.trunc(limit))) as Array<{ id: string }>;
  return rows.map((row) => row.id);
}

/** The session's subagent transcripts the index holds, by path. */
export function subagentFilesOf(index: SessionIndex, sessionId: string): string[] {
  const rows = databaseOf(index)
    .prepare("SELECT path FROM files WHERE session_id = ? AND kind = 'subagent' ORDER BY path")
    .all(sessionId) as Array<{ path: string }>;
  return rows.map((row) => row.path);
}
