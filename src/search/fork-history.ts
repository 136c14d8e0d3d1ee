// Fork history end to end (docs/forks.md): the forks the session index knows (its lineage), each one's own part
// read from its transcript, matched to the fork log's searches and runs; then the paid-off sources written for
// search. Built when a person asks (`ctx forks`, `ctx stats`) and after `ctx index`, never inside a search: it reads
// every fork's transcript, and a search must not wait for that. Shared by the CLI and the MCP server.
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import {
  buildForkHistory,
  type ForkHistory,
  type ForkRecord,
  type IndexedFork,
  paidOffBySource,
} from "../core/library/fork-history.ts";
import type { ForkLogRecord } from "../core/library/fork-log-schema.ts";
import { createForkOutcomeReader, type ForkOwnPart } from "../core/library/fork-outcome.ts";
import { redactText } from "../core/redact/redact.ts";
import { selectProjects } from "../core/search/fork-query.ts";
import { isSkipped } from "../core/transcript/entries.ts";
import { CtxError } from "../errors.ts";
import { readForkLog } from "../store/library/fork-log-read.ts";
import { outcomeKey, readOutcomeCache, writeOutcomeCache } from "../store/library/fork-outcome-cache.ts";
import { writePaidOffSources } from "../store/library/fork-paid-off-write.ts";
import { readTranscriptEntries } from "../store/transcript/reader.ts";
import type { ForkRecordReport, ForkStats, ForksReport } from "./fork-history-schema.ts";
import { formatForks } from "./fork-history-text.ts";
import { resolveIndexPath } from "./paths.ts";
import { readForkedSessions } from "./session-index/lineage.ts";
import { openSessionIndex } from "./session-index/session-index.ts";

/** Fork transcripts read at once: enough to overlap their reads, few enough for any descriptor limit. */
const TRANSCRIPTS_AT_ONCE = 4;

export interface ForkHistoryRequest {
  env: NodeJS.ProcessEnv;
  /** Where `--project this` points. */
  projectRoot: string;
  /** "this", a path, or part of a project folder name (as `ctx search --project`). */
  project?: string;
  /** Forks and searches from this time on (ms). */
  since?: number;
}

/** Reads the log, the index and the forks' transcripts; writes the paid-off sources (from all forks) for search. */
export async function loadForkHistory(request: ForkHistoryRequest): Promise<ForksReport> {
  const log = await readForkLog(request.env);
  const dbPath = resolveIndexPath(request.env);
  const { forked, projects } = readIndexedForks(dbPath);
  const cache = await readOutcomeCache(request.env);
  const kept = new Map<string, ForkOwnPart>();
  const indexed = await mapInTurns(forked, TRANSCRIPTS_AT_ONCE, (fork) => withOwnPart(fork, log.records, cache, kept));
  await writeOutcomeCache(request.env, kept);
  // The lift is learnt from every fork, whatever this listing's filters.
  await writePaidOffSources(request.env, paidOffBySource(buildForkHistory(log.records, indexed).forks));
  let shown = indexed;
  if (request.project !== undefined && request.project.trim() !== "") {
    const wanted = new Set(selectProjects(request.project, request.projectRoot, projects));
    if (wanted.size === 0) {
      throw new CtxError("NOT_FOUND", `no indexed project matches "${request.project}"`, {
        hint: `known projects: ${projects.slice(0, 8).join(", ") || "none yet (run ctx index)"}`,
      });
    }
    shown = indexed.filter((fork) => wanted.has(fork.project));
  }
  const history = buildForkHistory(log.records, shown, request.since === undefined ? {} : { since: request.since });
  return { forks: history.forks.map(toReport), stats: statsOf(history, log.skipped) };
}

function readIndexedForks(dbPath: string): {
  forked: Array<IndexedFork & { path: string | null }>;
  projects: string[];
} {
  if (!existsSync(dbPath)) return { forked: [], projects: [] };
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    const forked = readForkedSessions(index).map((fork) => ({
      sessionId: fork.id,
      parentId: fork.parentId,
      project: fork.project,
      cwd: fork.cwd,
      path: fork.path,
      createdAt: fork.createdAt,
      updatedAt: fork.updatedAt,
      forkedAgain: fork.forkedAgain,
      own: null,
    }));
    return { forked, projects: index.projects() };
  } finally {
    index.close();
  }
}

/** The fork with its own part: from the cache when its transcript is unchanged, else read (null when it is gone). */
async function withOwnPart(
  fork: IndexedFork & { path: string | null },
  records: readonly ForkLogRecord[],
  cache: ReadonlyMap<string, ForkOwnPart>,
  kept: Map<string, ForkOwnPart>,
): Promise<IndexedFork> {
  const points = new Set<string>();
  for (const record of records) {
    if (record.kind === "run" && record.sessionId === fork.parentId && record.point !== null) points.add(record.point);
    if (record.kind !== "offer") continue;
    for (const offered of record.sessions) {
      if (offered.sessionId === fork.parentId && offered.point !== null) points.add(offered.point);
    }
  }
  const { path, ...rest } = fork;
  const info = path === null ? null : await stat(path).catch(() => null);
  if (path === null || info === null || !info.isFile()) return { ...rest, own: null };
  const key = outcomeKey(path, info.size, info.mtimeMs, points);
  const own = cache.get(key) ?? (await readOwnPart(path, fork.sessionId, points));
  if (own !== null) kept.set(key, own);
  return { ...rest, own };
}

async function readOwnPart(path: string, sessionId: string, points: ReadonlySet<string>): Promise<ForkOwnPart | null> {
  const reader = createForkOutcomeReader(sessionId, points);
  try {
    for await (const line of readTranscriptEntries(path)) if (!isSkipped(line.entry)) reader.add(line.entry);
  } catch {
    // Unreadable now (removed meanwhile, permissions): the outcome is unknown, the fork still listed.
    return null;
  }
  const own = reader.finish();
  // Redacted here: the reading is kept (./store/library/fork-outcome-cache.ts) and shown.
  return { ...own, filesModified: own.filesModified.map((file) => redactText(file).text) };
}

/** `work` over `items` with at most `width` running at once; results in the items' order. */
async function mapInTurns<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

function toReport(fork: ForkRecord): ForkRecordReport {
  return {
    ...fork,
    at: new Date(fork.at).toISOString(),
    offer: fork.offer === null ? null : { ...fork.offer, at: new Date(fork.offer.at).toISOString() },
  };
}

function statsOf(history: ForkHistory, skipped: number): ForkStats {
  return {
    searches: history.searches,
    searchesWithOffers: history.searchesWithOffers,
    searchesFollowedByFork: history.searchesFollowedByFork,
    successRate: history.successRate,
    forks: history.forks.length,
    forksFromSearch: history.forks.filter((fork) => fork.fromSearch).length,
    verdicts: history.verdicts,
    skippedLogLines: skipped,
  };
}

/**
 * Fork history for Claude (the `forks` op of the MCP library tool, docs/forks.md): the list as text, and the same
 * report as structured data (ForksReportSchema, ./fork-history-schema.ts, is its output schema). `limit` keeps the
 * newest forks (the stats count them all).
 */
export async function forkHistoryForModel(
  request: ForkHistoryRequest & { limit?: number },
): Promise<{ text: string; structured: ForksReport }> {
  const report = await loadForkHistory(request);
  const limit = request.limit ?? 20;
  const structured = { ...report, forks: report.forks.slice(0, Math.max(0, limit)) };
  const more = report.forks.length - structured.forks.length;
  const text = `${formatForks(structured)}${more > 0 ? `(${more} older fork(s) not shown)\n` : ""}`;
  return { text, structured };
}
