// `pnpm bench retrieval`: session retrieval quality on two splits read at run time (never copied here): LoCoMo
// (../shared/eval/locomo, or CTX_EVAL_DIR) and real Claude Code coding sessions (../shared/eval/coding, or
// CTX_CODING_EVAL_DIR, plus our own queries in bench/coding-queries.jsonl when it exists, reported apart).
// `headline` is ctx AS SHIPPED: indexes built by the built CLI, the coding split searched by `ctx search --json`
// (global, and one person's history: each source repository indexed alone) and LoCoMo by an MCP client calling
// ctx_fork_detect on `ctx serve`. `inProcessCheck` says whether the in-process path (bench/retrieval-splits.ts, what
// bench/retrieval-tune.ts tunes with) gives the same rankings. Then LoCoMo's in-process modes (the shipped defaults and
// their ablations, bench/retrieval-locomo.ts), the coding split per kind, plain BM25 over whole sessions beside each,
// and every coding rank-1 miss. Adversarial LoCoMo questions (category 5) stay out of the headline.
import { defaultConfig } from "../src/config/defaults.ts";
import { databaseOf } from "../src/search/session-index/database.ts";
import { openSessionIndex } from "../src/search/session-index/session-index.ts";
import { codingBaseline, codingMisses, summarizeCoding } from "./retrieval-coding.ts";
import {
  bestChunkOnly,
  everyOther,
  HEADLINE_EXCLUDES,
  locomoBaseline,
  PUBLISHED,
  relevanceOnly,
  summarizeLocomo,
  without,
} from "./retrieval-locomo.ts";
import { runLocomoModes } from "./retrieval-locomo-worker.ts";
import {
  answerLocomoWithMcp,
  answerWithCli,
  buildWithCli,
  compareRankings,
  requireBuiltCli,
  timingOf,
} from "./retrieval-shipped.ts";
import {
  answerCoding,
  buildHomes,
  evaluateSplits,
  indexSizes,
  LOCOMO,
  type PreparedSplits,
  prepareSplits,
  SHIPPED_LIMIT,
  type SplitHomes,
} from "./retrieval-splits.ts";

const seconds = (ms: number) => Math.round(ms / 100) / 10;

export async function run(): Promise<Record<string, unknown>> {
  requireBuiltCli();
  const started = performance.now();
  const splits = await prepareSplits();
  try {
    const { layout } = splits;
    if (layout.locomo === null && layout.coding === null) {
      return { skipped: "neither the LoCoMo nor the coding eval data was found: retrieval benchmark skipped" };
    }
    const prepared = performance.now();
    const clock = Date.now();
    const locomo = await locomoModes(splits, clock);
    const modesDone = performance.now();
    const cli = await buildHomes(layout, "cli", buildWithCli);
    const cliBuilt = performance.now();
    const search = defaultConfig().search;
    const inProcess = await evaluateSplits(search, { splits, now: clock, keepRankings: true });
    const inProcessDone = performance.now();
    const shipped = await asShipped(splits, cli.homes);
    const shippedDone = performance.now();
    const result = {
      headline: shipped.headline,
      inProcessCheck: inProcessCheck(splits, inProcess, shipped, locomo),
      locomo,
      coding:
        layout.coding === null
          ? { skipped: "coding eval data not found" }
          : codingSection(splits, cli, inProcess, shipped),
    };
    const done = performance.now();
    return {
      ...result,
      seconds: {
        total: seconds(done - started),
        layoutAndInProcessIndexes: seconds(prepared - started),
        locomoModesOnTwoThreads: seconds(modesDone - prepared),
        cliIndexes: seconds(cliBuilt - modesDone),
        inProcessAtShippedLimit: seconds(inProcessDone - cliBuilt),
        asShipped: seconds(shippedDone - inProcessDone),
        baselinesAndMisses: seconds(done - shippedDone),
      },
    };
  } finally {
    splits.dispose();
  }
}

/**
 * The coding split through `ctx search`, LoCoMo through ctx_fork_detect on `ctx serve`, on the CLI's indexes. The two
 * run side by side (each in its own processes: a core each on a two-core machine), which keeps the run near 6 minutes.
 */
async function asShipped(splits: PreparedSplits, homes: SplitHomes) {
  const { layout } = splits;
  const codingRun = async () => {
    if (layout.coding === null) return null;
    const samples: number[] = [];
    const answers = await answerCoding(layout.coding.corpora, homes, answerWithCli(SHIPPED_LIMIT, samples));
    return { answers, timing: timingOf(samples) };
  };
  const locomoHome = homes.get(LOCOMO);
  const [coding, locomo] = await Promise.all([
    codingRun(),
    layout.locomo === null || locomoHome === undefined
      ? null
      : answerLocomoWithMcp(locomoHome, layout.locomo, SHIPPED_LIMIT),
  ]);
  const headline = {
    description:
      "AS SHIPPED: indexes built by `node dist/ctx.js index --quiet`; the coding split searched by " +
      `\`ctx search --json --no-refresh --limit ${SHIPPED_LIMIT}\` (a new process per query), LoCoMo by an MCP client ` +
      `calling ctx_fork_detect (limit ${SHIPPED_LIMIT}) on one warm \`ctx serve\` (the two side by side); the real clock, default config`,
    locomo:
      layout.locomo === null || locomo === null
        ? { skipped: "LoCoMo eval data not found" }
        : {
            setting: "global: every session of the split in one index",
            ...summarizeLocomo(
              layout.locomo,
              locomo.answers.map((a) => a.ranked),
            ),
            ...locomo.timing,
          },
    coding:
      layout.coding === null || coding === null
        ? { skipped: "coding eval data not found" }
        : {
            settings:
              "global: every session in one index; person: each source repository's sessions in an index of its own, its own queries only",
            ...summarizeCoding(layout.coding.data, coding.answers),
            ...coding.timing,
          },
  };
  return { headline, coding, locomo };
}

type InProcess = Awaited<ReturnType<typeof evaluateSplits>>;
type Shipped = Awaited<ReturnType<typeof asShipped>>;
type LocomoModes = Awaited<ReturnType<typeof locomoModes>>;

/** Whether the in-process path ranks as the shipped one does, query by query (top 10 ids). */
function inProcessCheck(splits: PreparedSplits, inProcess: InProcess, shipped: Shipped, locomo: LocomoModes) {
  const rankings = inProcess.rankings ?? {};
  const check: Record<string, unknown> = {
    description:
      `evaluateSplits (runForkDetect in-process on indexes syncIndex built, limit ${SHIPPED_LIMIT}, the same clock) ` +
      "against the headline: queries whose top 10 session ids are identical",
  };
  const data = splits.layout.locomo;
  if (data !== null && shipped.locomo !== null && inProcess.locomo !== null) {
    const keys = data.queries.map((q) => `locomo:${q.id}`);
    check.locomoGlobal = {
      ...compareRankings(
        keys,
        keys.map((key) => rankings[key] ?? []),
        shipped.locomo.answers.map((a) => a.ranked),
      ),
      inProcessOverall: inProcess.locomo.overall,
      inProcessMsPerQuery: inProcess.locomo.msPerQuery,
    };
    // The ablations rank every session (limit = the corpus); the headline asks for 10, whose pool is 22 sessions.
    if (!("skipped" in locomo)) check.locomoWholeRankingOverall = locomo.ctx.globalShippedRealClock?.overall;
  }
  const coding = splits.layout.coding;
  if (coding !== null && shipped.coding !== null) {
    const ids = coding.data.queries.map((q) => q.id);
    for (const setting of ["global", "person"] as const) {
      check[`coding-${setting}`] = compareRankings(
        ids,
        ids.map((id) => rankings[`coding-${setting}:${id}`] ?? []),
        ids.map((id) => shipped.coding?.answers[setting].get(id)?.ranked ?? []),
      );
    }
  }
  return check;
}

/** LoCoMo in-process: the shipped defaults and their ablations over the whole ranking, and BM25 beside them. */
async function locomoModes(splits: PreparedSplits, clock: number) {
  const data = splits.layout.locomo;
  const home = splits.homes.get(LOCOMO);
  if (data === null || home === undefined) return { skipped: "LoCoMo eval data not found" };
  const index = openSessionIndex(`${home}/index.db`, { readonly: true });
  let newest: number;
  let stats: ReturnType<typeof index.stats>;
  try {
    newest = (databaseOf(index).prepare("SELECT max(updated_at) AS t FROM sessions").get() as { t: number }).t;
    stats = index.stats();
  } finally {
    index.close();
  }
  // Two clocks: the real one (the sessions are years old, as a user's old sessions would be), and `now` just after
  // the newest session (the user searches right after their latest one, so recency spreads over the conversations'
  // real time span, months).
  const now = newest + 60_000;
  const search = defaultConfig().search;
  return {
    data: {
      dir: data.dir,
      sessions: data.sessions.length,
      queries: data.queries.length,
      headlineExcludes: HEADLINE_EXCLUDES,
    },
    index: { sessions: stats.sessions, chunks: stats.chunks, buildMs: splits.buildMs[LOCOMO] },
    now: new Date(now).toISOString(),
    realClock: new Date(clock).toISOString(),
    // On two worker threads, each with an index of its own (./retrieval-locomo-worker.ts).
    ctx: await runLocomoModes(data.dir, {
      globalShippedRealClock: { search, within: false, now: clock },
      globalShippedAfterNewest: { search, within: false, now },
      globalRelevanceOnly: { search: relevanceOnly(search), within: false, now },
      globalWithoutFeedback: { search: without(search, { feedbackSimilarity: 0 }), within: false, now },
      globalWithoutPrompt: { search: without(search, { promptSimilarity: 0 }), within: false, now },
      globalWithoutNamedDate: { search: without(search, { namedDate: 0 }), within: false, now },
      globalBestAndPassageOnly: {
        search: without(search, { promptSimilarity: 0, feedbackSimilarity: 0, namedDate: 0 }),
        within: false,
        now,
      },
      globalBestChunkOnly: { search: bestChunkOnly(search), within: false, now },
      withinShippedAfterNewest: { search, within: true, now },
      // LoCoMo has no forks: this is what fork history's lift does when it is noise. Every other session (by id) has
      // two forks that paid off (chain quality 0.5 -> 0.875), whatever the question: how much can lifts that say
      // nothing about a question move its answer?
      globalShippedHalfPaidOff: { search, within: false, now, paidOff: everyOther(data.sessions, 2) },
      withinRelevanceOnly: { search: relevanceOnly(search), within: true, now },
    }),
    baselineBm25WholeSessions: locomoBaseline(data),
    published: PUBLISHED,
  };
}

/** The coding split: its data, the in-process figures, BM25 beside them, and the headline's rank-1 misses. */
function codingSection(
  splits: PreparedSplits,
  cli: { homes: SplitHomes; buildMs: Record<string, number> },
  inProcess: InProcess,
  shipped: Shipped,
) {
  const coding = splits.layout.coding;
  if (coding === null || inProcess.coding === null) return { skipped: "coding eval data not found" };
  const { data, corpora } = coding;
  const count = (source: string) => data.queries.filter((q) => q.source === source).length;
  const sizes = indexSizes(cli.homes);
  return {
    data: {
      dir: data.dir,
      ownQueries: data.ownQueries,
      sessions: data.sessions.length,
      queries: { given: count("given"), own: count("own") },
      corpora: corpora.map((c) => ({
        name: c.name,
        sessions: c.sessions.length,
        queries: c.queries.length,
        indexedSessions: sizes[c.name]?.sessions ?? null,
        chunks: sizes[c.name]?.chunks ?? null,
        cliIndexMs: cli.buildMs[c.name] ?? null,
      })),
    },
    inProcess: inProcess.coding,
    baselineBm25WholeSessions: codingBaseline(data, corpora),
    misses: shipped.coding === null ? [] : codingMisses(data, shipped.coding.answers),
  };
}
