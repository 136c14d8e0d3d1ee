// How far the evidence ctx computes can go on LoCoMo: `node bench/retrieval-ceiling.ts` ranks every non-adversarial
// dev question through runForkDetect (shipped settings, `--limit 20`), then fits a weighted sum of each candidate's
// relevance parts to the split itself (coordinate ascent on hit@1, then MRR, from fixed starts) and reorders the same
// 20 candidates by it. The fit is in-sample on purpose: it is the most any reweighting of those parts can give this
// split, not a setting to ship. A second fit adds what whole-session BM25 and a session's length say. Prints one JSON
// document: the share of questions with a relevant session among the 20, the shipped order's figures, and each fit's
// figures and weights. A lab tool beside bench/retrieval-tune.ts; docs/search.md quotes it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import { runForkDetect } from "../src/search/fork-detect.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { findLocomoDir, type LocomoQuery, loadLocomo } from "./locomo-data.ts";
import { buildBm25, readSessionText } from "./retrieval-bm25.ts";
import { HEADLINE_EXCLUDES, locomoOutcome } from "./retrieval-locomo.ts";
import { firstRelevantRank, summarizeByCategory } from "./retrieval-metrics.ts";

/** Candidates per question: twice the headline's 10, so the fit can lift a session the shipped order puts 11th-20th. */
const CANDIDATES = 20;

/** ctx's relevance parts as the shipped formula combines them (docs/search.md, step 6), one column each. */
const PARTS = [
  "best",
  "passage",
  "prompt",
  "average",
  "chunkRatio",
  "feedback·best",
  "feedback·passage",
  "feedback·prompt",
  "namedDate",
] as const;
/** The same and two signals ctx does not use: whole-session BM25 (1 / its rank) and a session's size (ln messages). */
const WITH_SESSION = [...PARTS, "wholeSessionBm25", "lnMessages"] as const;

/** The shipped weights in PARTS' columns: best 1, passage 1, prompt 0.4 (Σ 2.4), feedback 0.3 / Σ, named date 0.5. */
const SHIPPED_START = [1, 1, 0.4, 0, 0, 0.3 / 2.4, 0.3 / 2.4, (0.3 / 2.4) * 0.4, 0.5];

interface Question {
  query: LocomoQuery;
  /** The candidates' session ids in the order runForkDetect gave. */
  ids: string[];
  /** Each candidate's feature values, in WITH_SESSION's columns (PARTS' are its first). */
  features: number[][];
}

/** The candidates ordered by `score`, best first (the order runForkDetect gave breaks ties). */
function ordered(q: Question, score: (features: readonly number[]) => number): string[] {
  const scores = q.features.map(score);
  return scores
    .map((_, i) => i)
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
    .map((i) => q.ids[i] ?? "");
}

/** What the fit climbs: hit@1, then MRR, of the candidates ordered by `score`, rounded as the figures are. */
interface Fitness {
  hitAt1: number;
  mrr: number;
}

function fitnessOf(questions: readonly Question[], score: (features: readonly number[]) => number): Fitness {
  let hits = 0;
  let reciprocal = 0;
  for (const q of questions) {
    const rank = firstRelevantRank(ordered(q, score), q.query.relevant_session_ids);
    if (rank === null) continue;
    if (rank === 1) hits++;
    reciprocal += 1 / rank;
  }
  const n = Math.max(1, questions.length);
  return { hitAt1: round(hits / n), mrr: round(reciprocal / n) };
}

/** The bench's figures (retrieval-metrics.ts) of the candidates ordered by `score`: hit@1/3/5, MRR, per category. */
function figuresOf(questions: readonly Question[], score: (features: readonly number[]) => number) {
  const { overall, byCategory } = summarizeByCategory(
    questions.map((q) => locomoOutcome(q.query, ordered(q, score))),
    HEADLINE_EXCLUDES,
  );
  return {
    hitAt1: overall.hitAt1,
    hitAt3: overall.hitAt3,
    hitAt5: overall.hitAt5,
    mrr: overall.mrr,
    hitAt1ByCategory: Object.fromEntries(Object.entries(byCategory).map(([category, m]) => [category, m.hitAt1])),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function linear(weights: readonly number[]): (features: readonly number[]) => number {
  return (features) => weights.reduce((sum, w, i) => sum + w * (features[i] ?? 0), 0);
}

function better(a: Fitness, b: Fitness): boolean {
  return a.hitAt1 > b.hitAt1 || (a.hitAt1 === b.hitAt1 && a.mrr > b.mrr);
}

/**
 * Non-negative weights over the first `columns` features that order the questions best (hit@1, then MRR): coordinate
 * ascent with halving steps from each fixed start (the shipped weights, all ones, each column alone).
 */
function fitWeights(questions: readonly Question[], columns: number): number[] {
  const starts: number[][] = [
    [...SHIPPED_START, ...Array.from({ length: columns - SHIPPED_START.length }, () => 0)],
    Array.from({ length: columns }, () => 1),
    ...Array.from({ length: columns }, (_, i) => Array.from({ length: columns }, (__, j) => (i === j ? 1 : 0.1))),
  ];
  let best = { weights: starts[0] ?? [], fitness: fitnessOf(questions, linear(starts[0] ?? [])) };
  for (const start of starts) {
    let weights = start;
    let fitness = fitnessOf(questions, linear(weights));
    for (let step = 0.5; step > 0.01; ) {
      let moved = false;
      for (let i = 0; i < columns; i++) {
        for (const delta of [step, -step]) {
          const tried = weights.map((w, j) => (j === i ? Math.max(0, w + delta) : w));
          const triedFitness = fitnessOf(questions, linear(tried));
          if (better(triedFitness, fitness)) {
            weights = tried;
            fitness = triedFitness;
            moved = true;
          }
        }
      }
      if (!moved) step /= 2;
    }
    if (better(fitness, best.fitness)) best = { weights, fitness };
  }
  return best.weights;
}

async function main(): Promise<void> {
  const dir = findLocomoDir();
  if (dir === null) {
    process.stderr.write("bench: LoCoMo eval data not found (../shared/eval/locomo, or set CTX_EVAL_DIR)\n");
    process.exitCode = 1;
    return;
  }
  const data = loadLocomo(dir);
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-ceiling-"));
  try {
    await syncIndex({ claudeDir: data.claudeDir, dbPath: join(home, "index.db") });
    const bm25 = buildBm25(
      data.sessions.map((s) => ({ id: s.sessionId, text: readSessionText(join(data.claudeDir, s.path)) })),
    );
    const config = defaultConfig();
    const env = { ...process.env, CTX_HOME: home, CTX_LOG_LEVEL: "silent" };
    const now = Date.now();
    const questions: Question[] = [];
    for (const q of data.queries) {
      if (HEADLINE_EXCLUDES.includes(q.category_name)) continue;
      const result = await runForkDetect(
        { query: q.query, limit: CANDIDATES },
        { config, env, projectRoot: home, now: () => now, claudeDir: data.claudeDir, refreshBudgetMs: 0 },
      );
      const bm25Rank = new Map(bm25.rank(q.query).map((id, i) => [id, i]));
      questions.push({
        query: q,
        ids: result.candidates.map((c) => c.sessionId),
        features: result.candidates.map((c) => {
          const parts = c.components;
          const feedback = parts.feedbackSimilarity ?? 1;
          const prompt = parts.promptSimilarity ?? 0;
          return [
            parts.bestSimilarity,
            parts.passageSimilarity,
            prompt,
            parts.averageSimilarity,
            parts.chunkRatio,
            feedback * parts.bestSimilarity,
            feedback * parts.passageSimilarity,
            feedback * prompt,
            parts.namedDate ?? 0,
            1 / (1 + (bm25Rank.get(c.sessionId) ?? data.sessions.length)),
            Math.log(Math.max(1, c.messageCount)),
          ];
        }),
      });
    }
    // Every candidate ties, so the order runForkDetect gave stands.
    const shippedOrder = () => 0;
    const fits = [
      { name: "ctx's relevance parts", columns: PARTS },
      { name: "ctx's parts, whole-session BM25 and length", columns: WITH_SESSION },
    ].map(({ name, columns }) => {
      const weights = fitWeights(questions, columns.length);
      return {
        name,
        ...figuresOf(questions, linear(weights)),
        weights: Object.fromEntries(columns.map((column, i) => [column, round(weights[i] ?? 0)])),
      };
    });
    const out = {
      questions: questions.length,
      candidates: CANDIDATES,
      relevantAmongCandidates: round(
        questions.filter(({ query, ids }) => firstRelevantRank(ids, query.relevant_session_ids) !== null).length /
          questions.length,
      ),
      shipped: figuresOf(questions, shippedOrder),
      fits,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
