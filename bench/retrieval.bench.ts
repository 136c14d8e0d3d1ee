// `pnpm bench:retrieval`: session retrieval quality on the LoCoMo-derived set (../shared/eval/locomo, read at
// run time, never copied here; CTX_EVAL_DIR points elsewhere, e.g. at a held-out split). The real pipeline
// (syncIndex into a throwaway CTX_HOME, then runForkDetect, the code path of `ctx search`) is scored per category
// and overall, global (every session) and within the question's own conversation (project filter): the shipped
// defaults with the real clock and with `now` just after the newest session, shipped relevance alone (no near-tie
// lift), shipped without feedback terms / named dates / both (what each adds), and the previous ranking's
// relevance (best chunk alone); next to a plain BM25-over-whole-sessions
// baseline and the published reference points. Adversarial questions (category 5) stay out of the headline.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import type { Config } from "../src/config/schema.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { databaseOf } from "../src/search/session-index/database.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { writePaidOffSources } from "../src/store/library/fork-paid-off-write.ts";
import { findLocomoDir, type LocomoData, type LocomoQuery, loadLocomo } from "./locomo-data.ts";
import { buildBm25, readSessionText } from "./retrieval-bm25.ts";
import { type QueryOutcome, summarizeByCategory } from "./retrieval-metrics.ts";

const HEADLINE_EXCLUDES = ["adversarial"];

/** What the README and the paper publish (different scopes: see `scope`). */
const PUBLISHED = {
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

function outcome(query: LocomoQuery, ranked: readonly string[]): QueryOutcome {
  return {
    category: query.category_name,
    ranked,
    relevant: query.relevant_session_ids,
    evidenceSessions: query.evidenceSessions,
  };
}

function baseline(data: LocomoData) {
  const bm25 = buildBm25(
    data.sessions.map((s) => ({ id: s.sessionId, text: readSessionText(join(data.claudeDir, s.path)) })),
  );
  const byConversation = new Map<string, Set<string>>();
  for (const s of data.sessions) {
    const ids = byConversation.get(s.conversation) ?? new Set<string>();
    ids.add(s.sessionId);
    byConversation.set(s.conversation, ids);
  }
  const global = data.queries.map((q) => outcome(q, bm25.rank(q.query)));
  // Within a conversation: the same corpus statistics, candidates limited to the conversation (as measured in the README).
  const within = data.queries.map((q) => outcome(q, bm25.rank(q.query, byConversation.get(q.conversation))));
  return {
    description: "BM25 over whole sessions: lower-cased alphanumeric tokens, short stop-word list, k1 1.2, b 0.75",
    global: summarizeByCategory(global, HEADLINE_EXCLUDES),
    within: summarizeByCategory(within, HEADLINE_EXCLUDES),
  };
}

/** Shipped relevance without the near-tie lift from recency and chain quality. */
function relevanceOnly(search: Config["search"]): Config["search"] {
  return { ...search, tieMargin: 0 };
}

/** Shipped, less some relevance parts (weight 0): what each part adds. */
function without(search: Config["search"], parts: Partial<Config["search"]["weights"]>): Config["search"] {
  return { ...search, weights: { ...search.weights, ...parts } };
}

/** The previous ranking's relevance: each session's best chunk alone (no passage, feedback, dates, boosts, recency). */
function bestChunkOnly(search: Config["search"]): Config["search"] {
  return {
    ...search,
    tieMargin: 0,
    weights: {
      ...search.weights,
      bestSimilarity: 1,
      passageSimilarity: 0,
      averageSimilarity: 0,
      chunkRatio: 0,
      feedbackSimilarity: 0,
      namedDate: 0,
    },
    boosts: { PATTERN: 1, WORKING_SOLUTION: 1, WAITING: 1 },
  };
}

interface Mode {
  search: Config["search"];
  within: boolean;
  now: number;
  /** Paid-off forks per source, as fork history leaves them for search (docs/forks.md); absent: none. */
  paidOff?: ReadonlyMap<string, number>;
}

/**
 * Each question through runForkDetect, the code path of `ctx search --json` and ctx_fork_detect (filters, ranking,
 * strong then weak matches), on an index built by syncIndex into a throwaway CTX_HOME.
 */
async function pipeline(home: string, data: LocomoData, modes: Record<string, Mode>) {
  const projectOf = new Map(data.sessions.map((s) => [s.conversation, s.projectDir]));
  const limit = data.sessions.length;
  const env = { ...process.env, CTX_HOME: home, CTX_LOG_LEVEL: "silent" };
  const results: Record<string, ReturnType<typeof summarizeByCategory> & { msPerQuery: number; empty: number }> = {};
  for (const [name, mode] of Object.entries(modes)) {
    const outcomes: QueryOutcome[] = [];
    let empty = 0;
    const started = performance.now();
    const config = { ...defaultConfig(), search: mode.search };
    await writePaidOffSources(env, mode.paidOff ?? new Map());
    for (const q of data.queries) {
      const result = await runForkDetect(
        {
          query: q.query,
          limit,
          ...(mode.within ? { project: projectOf.get(q.conversation) ?? q.project } : {}),
        },
        { config, env, projectRoot: home, now: () => mode.now, claudeDir: data.claudeDir, refreshBudgetMs: 0 },
      );
      if (result.candidates.length === 0) empty++;
      outcomes.push(
        outcome(
          q,
          result.candidates.map((c) => c.sessionId),
        ),
      );
    }
    const msPerQuery = Math.round(((performance.now() - started) / data.queries.length) * 100) / 100;
    results[name] = { ...summarizeByCategory(outcomes, HEADLINE_EXCLUDES), msPerQuery, empty };
  }
  return results;
}

/** Every other session id, in sorted order, with `forks` paid-off forks. */
function everyOther(sessions: LocomoData["sessions"], forks: number): Map<string, number> {
  const ids = sessions.map((session) => session.sessionId).sort();
  return new Map(ids.filter((_, i) => i % 2 === 0).map((id) => [id, forks]));
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = findLocomoDir();
  if (dir === null) {
    const message =
      "LoCoMo eval data not found (../shared/eval/locomo, or set CTX_EVAL_DIR): retrieval benchmark skipped";
    process.stderr.write(`bench: ${message}\n`);
    return { skipped: message };
  }
  const data = loadLocomo(dir);
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-retrieval-"));
  try {
    const dbPath = join(home, "index.db");
    const sync = await syncIndex({ claudeDir: data.claudeDir, dbPath });
    const index = openSessionIndex(dbPath, { readonly: true });
    try {
      const newest = (databaseOf(index).prepare("SELECT max(updated_at) AS t FROM sessions").get() as { t: number }).t;
      // Two clocks: the real one (the sessions are years old, as a user's old sessions would be), and `now` just
      // after the newest session (the user searches right after their latest one, so recency spreads over the
      // conversations' real time span, months).
      const now = newest + 60_000;
      const clock = Date.now();
      const search = defaultConfig().search;
      const stats = index.stats();
      return {
        data: {
          dir,
          sessions: data.sessions.length,
          queries: data.queries.length,
          headlineExcludes: HEADLINE_EXCLUDES,
        },
        index: { sessions: stats.sessions, chunks: stats.chunks, messages: sync.messages, syncMs: sync.durationMs },
        now: new Date(now).toISOString(),
        realClock: new Date(clock).toISOString(),
        ctx: await pipeline(home, data, {
          globalShippedRealClock: { search, within: false, now: clock },
          globalShippedAfterNewest: { search, within: false, now },
          globalRelevanceOnly: { search: relevanceOnly(search), within: false, now },
          globalWithoutFeedback: { search: without(search, { feedbackSimilarity: 0 }), within: false, now },
          globalWithoutNamedDate: { search: without(search, { namedDate: 0 }), within: false, now },
          globalBestAndPassageOnly: {
            search: without(search, { feedbackSimilarity: 0, namedDate: 0 }),
            within: false,
            now,
          },
          globalBestChunkOnly: { search: bestChunkOnly(search), within: false, now },
          withinShippedAfterNewest: { search, within: true, now },
          // LoCoMo has no forks: this is what fork history's lift does when it is noise. Every other session (by
          // id) has two forks that paid off (chain quality 0.5 -> 0.875), whatever the question: how much can
          // lifts that say nothing about a question move its answer?
          globalShippedHalfPaidOff: { search, within: false, now, paidOff: everyOther(data.sessions, 2) },
          withinRelevanceOnly: { search: relevanceOnly(search), within: true, now },
        }),
        baselineBm25WholeSessions: baseline(data),
        published: PUBLISHED,
      };
    } finally {
      index.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
