// `ctx doctor`'s look at the session index: absent, healthy (PRAGMA quick_check) or damaged. Read-only. And whether
// this Node's SQLite has FTS5, which doctor checks with the Node version (node-sqlite.ts, private to this folder).
import { existsSync } from "node:fs";
import type { SessionIndexFacts } from "../../core/setup/doctor-environment.ts";
import { describeError, isCtxError } from "../../errors.ts";
import { databaseOf } from "./database.ts";
import { fts5MissingError } from "./node-sqlite.ts";
import { isCorruptionError, openSessionIndex } from "./session-index.ts";

export { sqliteHasFts5 } from "./node-sqlite.ts";

export function inspectSessionIndex(path: string): SessionIndexFacts {
  if (!existsSync(path)) return { kind: "missing", path };
  let index: ReturnType<typeof openSessionIndex>;
  try {
    index = openSessionIndex(path, { readonly: true });
  } catch (error) {
    const unreadable = isCtxError(error) && error.code === "UNSUPPORTED_RUNTIME" ? error : fts5MissingError(error);
    if (unreadable !== null)
      return { kind: "unreadable", path, problem: unreadable.message, fix: unreadable.hint ?? "" };
    if (isCtxError(error) && error.code === "INDEX_CORRUPT") return { kind: "corrupt", path, problem: error.message };
    if (isCtxError(error) && error.code === "STATE_UNSUPPORTED_VERSION") {
      return { kind: "outdated", path, problem: error.message };
    }
    throw error;
  }
  try {
    const rows = databaseOf(index).prepare("PRAGMA quick_check").all() as Array<{ quick_check: string }>;
    const problems = rows.map((row) => row.quick_check).filter((text) => text !== "ok");
    if (problems.length > 0) return { kind: "corrupt", path, problem: problems.slice(0, 3).join("; ") };
    const stats = index.stats();
    return { kind: "ok", path, sessions: stats.sessions, chunks: stats.chunks, lastSyncAt: stats.lastSyncAt };
  } catch (error) {
    const noFts5 = fts5MissingError(error);
    if (noFts5 !== null) return { kind: "unreadable", path, problem: noFts5.message, fix: noFts5.hint ?? "" };
    if (isCorruptionError(error)) return { kind: "corrupt", path, problem: describeError(error) };
    throw error;
  } finally {
    index.close();
  }
}
