// Fork detection's index (./fork-detect.ts): the process's one read-only connection per index file, whether the
// index was synced a moment ago, catching it up within a time budget, and Claude Code's cleanup period for the
// candidates' notes.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { openSessionIndex, type SessionIndex } from "./session-index/session-index.ts";
import type { SyncSummary } from "./sync/sync-index.ts";

/** Claude Code's default `cleanupPeriodDays` (docs/claude-code-facts.md "Transcripts"). */
const DEFAULT_CLEANUP_DAYS = 30;

/**
 * One read-only connection per index file for the life of the process (the MCP server answers many searches;
 * the vector cache is kept per connection). A rebuilt index is a new file: its inode tells, and it is reopened.
 */
let reader: { path: string; inode: number; index: SessionIndex } | null = null;

export function openReader(dbPath: string): SessionIndex {
  const inode = statSync(dbPath).ino;
  if (reader !== null && reader.path === dbPath && reader.inode === inode) return reader.index;
  reader?.index.close();
  reader = { path: dbPath, inode, index: openSessionIndex(dbPath, { readonly: true }) };
  return reader.index;
}

/** True when the index exists and its last sync finished less than `withinMs` before `now`. */
export function syncedWithin(dbPath: string, now: number, withinMs: number): boolean {
  if (!existsSync(dbPath)) return false;
  try {
    const at = openReader(dbPath).lastSyncAt();
    return at !== null && now - at >= 0 && now - at < withinMs;
  } catch {
    // A damaged index is reported by the search itself, with its hint.
    return false;
  }
}

export async function refreshIndex(
  claudeDir: string,
  dbPath: string,
  budgetMs: number,
  env: NodeJS.ProcessEnv,
): Promise<SyncSummary | null> {
  if (budgetMs <= 0 || !existsSync(join(claudeDir, "projects"))) return null;
  // Loaded only to catch up: the sync brings the transcript reader, the redaction and the chunker, which a search
  // of the index as it is (`--no-refresh`, or an index synced a moment ago) never runs.
  const [{ syncIndex }, { sharedRootsForIngest }] = await Promise.all([
    import("./sync/sync-index.ts"),
    import("../store/team/team-state.ts"),
  ]);
  // Shared projects' sessions are queued for the team (the next `ctx index` or `ctx team push` sends them).
  const roots = await sharedRootsForIngest(env);
  return syncIndex({
    claudeDir,
    dbPath,
    signal: AbortSignal.timeout(budgetMs),
    teamShare: { roots },
    libraryEnv: env,
  });
}

/** The person's `cleanupPeriodDays` from Claude Code's user settings, else the default. */
export function readCleanupPeriodDays(claudeDir: string): number {
  try {
    const settings = JSON.parse(readFileSync(join(claudeDir, "settings.json"), "utf8")) as {
      cleanupPeriodDays?: unknown;
    };
    const days = settings.cleanupPeriodDays;
    return typeof days === "number" && days > 0 ? days : DEFAULT_CLEANUP_DAYS;
  } catch {
    return DEFAULT_CLEANUP_DAYS;
  }
}
