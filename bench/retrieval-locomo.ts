// The LoCoMo split of the retrieval benchmark, in-process: each question through runForkDetect (the code path of
// `ctx search --json` and ctx_fork_detect) on an index syncIndex built, in the modes bench/retrieval.bench.ts compares
// (the shipped defaults and its ablations), next to plain BM25 over whole sessions and the published reference points.
import { join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import type { Config } from "../src/config/schema.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { writePaidOffSources } from "../src/store/library/fork-paid-off-write.ts";
import type { LocomoData, LocomoQuery } from "./locomo-data.ts";
import { buildBm25, readSessionText } from "./retrieval-bm25.ts";
import { type QueryOutcome, summarizeByCategory } from "./retrieval-metrics.ts";

/** Adversarial questions (category 5) have no answer in the sessions: reported, kept out of the headline. */
export const HEADLINE_EXCLUDES = ["adversarial"];

/** What the README and the paper publish (different scopes: see `scope`). */
export const PUBLISHED = {
  locomoPaperDragon: {
    scope: "all 10 conversations, within each conversation, retrieval over session summaries (paper Table 3)",
    recallAt2: 0.659,
    recallAt5: 0.721,
    recallAt10: 0.847,
  },
  readmeBm25AllConversations: {
    scope: "all 10 conversations, within each conversation, BM25 over whole sessions",
    hitAt5: 0.892,
    recallAt5: 0.844,
    multiHopAllAt5: 0.248,
  },
  readmeBm25ThisSplitGlobal: {
    scope: "this split, global over 156 sessions, BM25 over whole sessions",
    hitAt1: 0.658,
    hitAt5: 0.878,
    hitAt5ByCategory: { "single-hop": 0.94, temporal: 0.878, "multi-hop": 0.75, "open-domain": 0.725 },
  },
  readmeBm25ThisSplitWithin: { scope: "this split, within each conversation", hitAt1: 0.675, hitAt5: 0.89 },
};

export function locomoOutcome(query: LocomoQuery, ranked: readonly string[]): QueryOutcome {
  return {
    category: query.category_name,
    ranked,
    relevant: query.relevant_session_ids,
    evidenceSessions: query.evidenceSessions,
  };
}

export function locomoBaseline(data: LocomoData) {
  const bm25 = buildBm25(
    data.sessions.map((s) => ({ id: s.sessionId, text: readSessionText(join(data.claudeDir, s.path)) })),
  );
  const byConversation = new Map<string, Set<string>>();
  for (const s of data.sessions) {
    const ids = byConversation.get(s.conversation) ?? new Set<string>();
    ids.add(s.sessionId);
    byConversation.set(s.conversation, ids);
  }
  const global = data.queries.map((q) => locomoOutcome(q, bm25.rank(q.query)));
  // Within a conversation: the same corpus statistics, candidates limited to the conversation (as measured in the README).
  const within = data.queries.map((q) => locomoOutcome(q, bm25.rank(q.query, byConversation.get(q.conversation))));
  return {
    description: "BM25 over whole sessions: lower-cased alphanumeric tokens, short stop-word list, k1 1.2, b 0.75",
    global: summarizeByCategory(global, HEADLINE_EXCLUDES),
    within: summarizeByCategory(within, HEADLINE_EXCLUDES),
  };
}

/** Shipped relevance without the near-tie lift from recency and chain quality. */
export function relevanceOnly(search: Config["search"]): Config["search"] {
  return { ...search, tieMargin: 0 };
}

/** Shipped, less some relevance parts (weight 0): what each part adds. */
export function without(search: Config["search"], parts: Partial<Config["search"]["weights"]>): Config["search"] {
  return { ...search, weights: { ...search.weights, ...parts } };
}

/** The previous ranking's relevance: each session's best chunk alone (no passage, feedback, dates, boosts, recency). */
export function bestChunkOnly(search: Config["search"]): Config["search"] {
  return {
    ...search,
    tieMargin: 0,
    weights: {
      ...search.weights,
      bestSimilarity: 1,
      passageSimilarity: 0,
      averageSimilarity: 0,
      chunkRatio: 0,
      promptSimilarity: 0,
      feedbackSimilarity: 0,
      namedDate: 0,
    },
    boosts: { PATTERN: 1, WORKING_SOLUTION: 1, WAITING: 1 },
  };
}

export interface LocomoMode {
  search: Config["search"];
  within: boolean;
  now: number;
  /** Sessions asked for (`--limit`); absent: every session (the whole ranking). */
  limit?: number;
  /** Paid-off forks per source, as fork history leaves them for search (docs/forks.md); absent: none. */
  paidOff?: ReadonlyMap<string, number>;
}

/** Every question's ranked session ids in one mode, and the time a question took. */
export async function rankLocomo(
  home: string,
  data: LocomoData,
  mode: LocomoMode,
): Promise<{ ranked: string[][]; msPerQuery: number }> {
  const projectOf = new Map(data.sessions.map((s) => [s.conversation, s.projectDir]));
  const env = { ...process.env, CTX_HOME: home, CTX_LOG_LEVEL: "silent" };
  const config = { ...defaultConfig(), search: mode.search };
  await writePaidOffSources(env, mode.paidOff ?? new Map());
  const ranked: string[][] = [];
  const started = performance.now();
  for (const q of data.queries) {
    const result = await runForkDetect(
      {
        query: q.query,
        limit: mode.limit ?? data.sessions.length,
        ...(mode.within ? { project: projectOf.get(q.conversation) ?? q.project } : {}),
      },
      { config, env, projectRoot: home, now: () => mode.now, claudeDir: data.claudeDir, refreshBudgetMs: 0 },
    );
    ranked.push(result.candidates.map((c) => c.sessionId));
  }
  const msPerQuery = Math.round(((performance.now() - started) / data.queries.length) * 100) / 100;
  return { ranked, msPerQuery };
}

/** Per-category and overall metrics of one mode's rankings (adversarial questions out of the headline). */
export function summarizeLocomo(data: LocomoData, ranked: readonly (readonly string[])[]) {
  return summarizeByCategory(
    data.queries.map((q, i) => locomoOutcome(q, ranked[i] ?? [])),
    HEADLINE_EXCLUDES,
  );
}

/**
 * Each question through runForkDetect, the code path of `ctx search --json` and ctx_fork_detect (filters, ranking,
 * strong then weak matches), on an index built by syncIndex into a throwaway CTX_HOME.
 */
export async function locomoPipeline(home: string, data: LocomoData, modes: Record<string, LocomoMode>) {
  const results: Record<string, ReturnType<typeof summarizeLocomo> & { msPerQuery: number; empty: number }> = {};
  for (const [name, mode] of Object.entries(modes)) {
    const { ranked, msPerQuery } = await rankLocomo(home, data, mode);
    const empty = ranked.filter((ids) => ids.length === 0).length;
    results[name] = { ...summarizeLocomo(data, ranked), msPerQuery, empty };
  }
  return results;
}

/** Every other session id, in sorted order, with `forks` paid-off forks. */
export function everyOther(sessions: LocomoData["sessions"], forks: number): Map<string, number> {
  const ids = sessions.map((session) => session.sessionId).sort();
  return new Map(ids.filter((_, i) => i % 2 === 0).map((id) => [id, forks]));
}
