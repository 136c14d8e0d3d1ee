// The retrieval benchmark's splits as corpora with their indexes, and the in-process evaluation over them: LoCoMo
// searched globally, and the coding split globally (every session together) and as one person's history (each source
// repository indexed alone, its own queries only). `evaluateSplits(search, …)` ranks every query with the given
// ranking settings on indexes built once (`prepareSplits`), so weights can be tuned across the splits
// (bench/retrieval-tune.ts); bench/retrieval.bench.ts checks it against the shipped CLI and MCP server.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import type { Config } from "../src/config/schema.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import {
  type CodingData,
  findCodingDir,
  layoutClaudeDir,
  loadCoding,
  OWN_QUERIES_PATH,
  personsOf,
} from "./coding-data.ts";
import { findLocomoDir, type LocomoData, loadLocomo } from "./locomo-data.ts";
import { type Answer, type CodingAnswers, type CodingCorpus, GLOBAL, summarizeCoding } from "./retrieval-coding.ts";
import { rankLocomo, summarizeLocomo } from "./retrieval-locomo.ts";
import { firstRelevantRank } from "./retrieval-metrics.ts";

/**
 * Sessions asked for per query, as `ctx search --limit 10` and ctx_fork_detect `limit: 10` ask. The limit moves the
 * ranking: only the 22 sessions leading by their best chunk (twice the 11 runForkDetect ranks) are scored further
 * (src/search/search-sessions.ts PASSAGE_POOL).
 */
export const SHIPPED_LIMIT = 10;

export interface SplitLayout {
  root: string;
  locomo: LocomoData | null;
  coding: { data: CodingData; corpora: CodingCorpus[] } | null;
}

/** A CTX_HOME per corpus (LoCoMo's under "locomo"), each holding the corpus's index.db. */
export type SplitHomes = Map<string, string>;
export const LOCOMO = "locomo";

export interface PreparedSplits {
  layout: SplitLayout;
  homes: SplitHomes;
  /** How long each index took to build (ms). */
  buildMs: Record<string, number>;
  /** Removes every folder made (the layout's copies and the homes). */
  dispose(): void;
}

/** The splits found (a missing one is null, with a line on stderr), the coding split's Claude folders copied under root. */
export function layoutSplits(root: string, env: NodeJS.ProcessEnv = process.env): SplitLayout {
  const locomoDir = findLocomoDir(env);
  if (locomoDir === null) {
    process.stderr.write(
      "bench: LoCoMo eval data not found (../shared/eval/locomo, or set CTX_EVAL_DIR): its retrieval figures skipped\n",
    );
  }
  const codingDir = findCodingDir(env);
  if (codingDir === null) {
    process.stderr.write(
      "bench: coding eval data not found (../shared/eval/coding, or set CTX_CODING_EVAL_DIR): its retrieval figures skipped\n",
    );
  }
  let coding: SplitLayout["coding"] = null;
  if (codingDir !== null) {
    const data = loadCoding(codingDir, { ownQueries: OWN_QUERIES_PATH });
    const corpora: CodingCorpus[] = [
      {
        name: GLOBAL,
        sessions: data.sessions,
        queries: data.queries,
        claudeDir: join(root, "coding-global", "claude"),
      },
      ...personsOf(data).map((person, i) => ({
        name: person.repo,
        sessions: person.sessions,
        queries: person.queries,
        claudeDir: join(root, `coding-person-${i}`, "claude"),
      })),
    ];
    for (const corpus of corpora) layoutClaudeDir(corpus.claudeDir, corpus.sessions);
    coding = { data, corpora };
  }
  return { root, locomo: locomoDir === null ? null : loadLocomo(locomoDir), coding };
}

/** Builds one index: into `home`, from `claudeDir`. */
export type BuildIndex = (claudeDir: string, home: string) => Promise<void>;

export const buildInProcess: BuildIndex = async (claudeDir, home) => {
  await syncIndex({ claudeDir, dbPath: join(home, "index.db") });
};

/** A home per corpus under `root/<label>-…`, each index built by `build`, and how long each took. */
export async function buildHomes(
  layout: SplitLayout,
  label: string,
  build: BuildIndex,
): Promise<{ homes: SplitHomes; buildMs: Record<string, number> }> {
  const homes: SplitHomes = new Map();
  const buildMs: Record<string, number> = {};
  const make = async (name: string, claudeDir: string, folder: string) => {
    const home = join(layout.root, `${label}-${folder}`);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const started = performance.now();
    await build(claudeDir, home);
    buildMs[name] = Math.round(performance.now() - started);
    homes.set(name, home);
  };
  if (layout.locomo !== null) await make(LOCOMO, layout.locomo.claudeDir, "locomo");
  for (const [i, corpus] of (layout.coding?.corpora ?? []).entries()) {
    await make(corpus.name, corpus.claudeDir, `coding-${i}`);
  }
  return { homes, buildMs };
}

/** Lays the splits out and builds their indexes in-process, once; `dispose()` removes it all. */
export async function prepareSplits(options: { env?: NodeJS.ProcessEnv } = {}): Promise<PreparedSplits> {
  const root = mkdtempSync(join(tmpdir(), "ctx-bench-retrieval-"));
  try {
    const layout = layoutSplits(root, options.env);
    const { homes, buildMs } = await buildHomes(layout, "in-process", buildInProcess);
    return { layout, homes, buildMs, dispose: () => rmSync(root, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/** Answers one query of a corpus from its home. */
export type AnswerQuery = (corpus: CodingCorpus, home: string, query: string) => Promise<Answer>;

/** runForkDetect with these ranking settings, as `ctx search --json --no-refresh --limit <limit>` runs it. */
export function answerInProcess(search: Config["search"], limit = SHIPPED_LIMIT, now = Date.now()): AnswerQuery {
  const config = { ...defaultConfig(), search };
  return async (corpus, home, query) => {
    const env = { ...process.env, CTX_HOME: home, CTX_LOG_LEVEL: "silent" };
    const result = await runForkDetect(
      { query, limit },
      { config, env, projectRoot: home, now: () => now, claudeDir: corpus.claudeDir, refreshBudgetMs: 0 },
    );
    return {
      ranked: result.candidates.map((c) => c.sessionId),
      messages: result.candidates.map((c) => c.messageCount),
    };
  };
}

export async function answerCoding(
  corpora: readonly CodingCorpus[],
  homes: SplitHomes,
  answer: AnswerQuery,
): Promise<CodingAnswers> {
  const answers: CodingAnswers = { global: new Map(), person: new Map(), msPerQuery: 0 };
  let count = 0;
  const started = performance.now();
  for (const corpus of corpora) {
    const home = homes.get(corpus.name);
    if (home === undefined) throw new Error(`no index for the coding corpus ${corpus.name}`);
    const into = corpus.name === GLOBAL ? answers.global : answers.person;
    for (const q of corpus.queries) {
      into.set(q.id, await answer(corpus, home, q.query));
      count++;
    }
  }
  answers.msPerQuery = Math.round(((performance.now() - started) / Math.max(1, count)) * 100) / 100;
  return answers;
}

export interface EvaluateOptions {
  splits: PreparedSplits;
  /** Sessions asked for per query (SHIPPED_LIMIT). */
  limit?: number;
  /** The clock the searches see (the real one). */
  now?: number;
  /** Also return every query's ranked session ids (`rankings`), to compare with another run. */
  keepRankings?: boolean;
}

/**
 * Every split's figures for these ranking settings, in-process on the prepared indexes: LoCoMo global (overall and per
 * category, adversarial out of the headline), the coding split global and one person's history (per kind; given and own
 * queries apart). Also each query's rank of its first relevant session (null: not in the answer), for folds, keyed
 * `locomo:<id>`, `coding-global:<id>`, `coding-person:<id>`.
 */
export async function evaluateSplits(search: Config["search"], options: EvaluateOptions) {
  const { layout, homes } = options.splits;
  const limit = options.limit ?? SHIPPED_LIMIT;
  const now = options.now ?? Date.now();
  let locomo: (ReturnType<typeof summarizeLocomo> & { msPerQuery: number }) | null = null;
  const ranks: Record<string, number | null> = {};
  const rankings: Record<string, string[]> = {};
  const locomoHome = homes.get(LOCOMO);
  if (layout.locomo !== null && locomoHome !== undefined) {
    const data = layout.locomo;
    const { ranked, msPerQuery } = await rankLocomo(locomoHome, data, { search, within: false, now, limit });
    locomo = { ...summarizeLocomo(data, ranked), msPerQuery };
    data.queries.forEach((q, i) => {
      ranks[`locomo:${q.id}`] = firstRelevantRank(ranked[i] ?? [], q.relevant_session_ids);
      if (options.keepRankings === true) rankings[`locomo:${q.id}`] = ranked[i] ?? [];
    });
  }
  let coding: (ReturnType<typeof summarizeCoding> & { msPerQuery: number }) | null = null;
  if (layout.coding !== null) {
    const answers = await answerCoding(layout.coding.corpora, homes, answerInProcess(search, limit, now));
    coding = { ...summarizeCoding(layout.coding.data, answers), msPerQuery: answers.msPerQuery };
    for (const q of layout.coding.data.queries) {
      const { relevant_session_ids: relevant } = q;
      ranks[`coding-global:${q.id}`] = firstRelevantRank(answers.global.get(q.id)?.ranked ?? [], relevant);
      ranks[`coding-person:${q.id}`] = firstRelevantRank(answers.person.get(q.id)?.ranked ?? [], relevant);
      if (options.keepRankings === true) {
        rankings[`coding-global:${q.id}`] = answers.global.get(q.id)?.ranked ?? [];
        rankings[`coding-person:${q.id}`] = answers.person.get(q.id)?.ranked ?? [];
      }
    }
  }
  return {
    limit,
    now: new Date(now).toISOString(),
    locomo,
    coding,
    ranks,
    ...(options.keepRankings === true ? { rankings } : {}),
  };
}

/** Sessions and chunks of each index. */
export function indexSizes(homes: SplitHomes): Record<string, { sessions: number; chunks: number }> {
  const sizes: Record<string, { sessions: number; chunks: number }> = {};
  for (const [name, home] of homes) {
    const index = openSessionIndex(join(home, "index.db"), { readonly: true });
    try {
      const stats = index.stats();
      sizes[name] = { sessions: stats.sessions, chunks: stats.chunks };
    } finally {
      index.close();
    }
  }
  return sizes;
}
