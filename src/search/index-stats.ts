// `ctx stats` and the ctx_index tool's `stats` op: the session index's figures as one report
// (core/search/index-stats-schema.ts), read from its running counts (session-index/index-counts.ts) plus the
// record of the last rebuild (sync/rebuild-record.ts). Opens the index read-only; a missing index is a report
// that says so, not an error.
import { existsSync } from "node:fs";
import type { IndexStatsReport } from "../core/search/index-stats-schema.ts";
import { readIndexCounts } from "./session-index/index-counts.ts";
import { integrityProblems, openSessionIndex } from "./session-index/session-index.ts";
import { readRebuildRecord } from "./sync/rebuild-record.ts";

/** The report's `integrity` when the check was skipped (readIndexStatsReport's `checkIntegrity: false`). */
export const INTEGRITY_NOT_CHECKED = "not checked";

export interface IndexStatsOptions {
  /**
   * Whether to run `PRAGMA quick_check` (default false: `ctx stats --check`). It reads every page of the file: seconds
   * at 100,000 sessions (bench/run.ts stats), where the rest of the report reads a few rows. A damaged page still
   * shows without it: a query that meets one fails with INDEX_CORRUPT, and `ctx doctor` runs the check.
   */
  checkIntegrity?: boolean;
}

export function readIndexStatsReport(
  path: string,
  env: NodeJS.ProcessEnv,
  options: IndexStatsOptions = {},
): IndexStatsReport {
  const rebuild = readRebuildRecord(env);
  if (!existsSync(path)) {
    return {
      path,
      exists: false,
      sessions: 0,
      chunks: 0,
      projects: 0,
      bytes: 0,
      lastSyncAt: null,
      vectors: 0,
      integrity: "ok",
      byProject: [],
      byMonth: [],
      duplicates: { copies: 0, foldedInto: 0, sharedTranscripts: 0 },
      rebuild,
    };
  }
  const index = openSessionIndex(path, { readonly: true });
  try {
    // The structure first: counts read from a damaged file may be wrong without any error.
    const problems = options.checkIntegrity === true ? integrityProblems(index) : null;
    return {
      path,
      exists: true,
      ...index.stats(),
      integrity: problems === null ? INTEGRITY_NOT_CHECKED : problems.length === 0 ? "ok" : problems.join("; "),
      ...readIndexCounts(index),
      rebuild,
    };
  } finally {
    index.close();
  }
}
