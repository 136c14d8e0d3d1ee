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
import { findLocomoDir, loadLocomo } from "./locomo-data.ts";
import { buildBm25, readSessionText } from "./retrieval-bm25.ts";
import { HEADLINE_EXCLUDES } from "./retrieval-locomo.ts";

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
/** The same and two signals ctx does not use: whole-session BM25 (1 / its rank) and the session's size (ln messages). */
const WITH_SESSION = [...PARTS, "wholeSessionBm25", "lnMessages"] as const;

/** The shipped weights in PARTS' columns: best 1, passage 1, prompt 0.4 (Σ 2.4), feedback 0.3 / Σ, named date 0.5. */
const SHIPPED_START = [1, 1, 0.4, 0, 0, 0.3 / 2.4, 0.3 / 2.4, (0.3 / 2.4) * 0.4, 0.5];

interface Question {
  category: string;
  /** Each candidate's feature values, in WITH_SESSION's columns (PARTS' are its first). */
  features: number[][];
  relevant: boolean[];
}

interface Figures {
  hitAt1: number;
  hitAt3: number;
  hitAt5: number;
  mrr: number;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** hit@k and MRR of ordering each question's candidates by `score` (the candidates' own order breaks ties). */
function figuresOf(questions: readonly Question[], score: (features: readonly number[]) => number): Figures {
  let hit1 = 0;
  let hit3 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  for (const q of questions) {
    const scores = q.features.map(score);
    const order = scores.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
    const rank = order.findIndex((i) => q.relevant[i] === true);
    if (rank < 0) continue;
    if (rank < 1) hit1++;
    if (rank < 3) hit3++;
    if (rank < 5) hit5++;
    reciprocal += 1 / (rank + 1);
  }
  const n = Math.max(1, questions.length);
  return { hitAt1: round(hit1 / n), hitAt3: round(hit3 / n), hitAt5: round(hit5 / n), mrr: round(reciprocal / n) };
}

function linear(weights: readonly number[]): (features: readonly number[]) => number {
  return (features) => weights.reduce((sum, w, i) => sum + w * (features[i] ?? 0), 0);
}

function better(a: Figures, b: Figures): boolean {
  return a.hitAt1 > b.hitAt1 || (a.hitAt1 === b.hitAt1 && a.mrr > b.mrr);
}

/**
 * Non-negative weights over the first `columns` features that order the questions best (hit@1, then MRR): coordinate
 * ascent with halving steps from each fixed start (the shipped weights, all ones, each column alone).
 */
function fitWeights(questions: readonly Question[], columns: number): { weights: number[]; figures: Figures } {
  const starts: number[][] = [
    [...SHIPPED_START, ...Array.from({ length: columns - SHIPPED_START.length }, () => 0)],
    Array.from({ length: columns }, () => 1),
    ...Array.from({ length: columns }, (_, i) => Array.from({ length: columns }, (__, j) => (i === j ? 1 : 0.1))),
  ];
  let best = { weights: starts[0] ?? [], figures: figuresOf(questions, linear(starts[0] ?? [])) };
  for (const start of starts) {
    let weights = start;
    let figures = figuresOf(questions, linear(weights));
    for (let step = 0.5; step > 0.01; ) {
      let moved = false;
      for (let i = 0; i < columns; i++) {
        for (const delta of [step, -step]) {
          const tried = weights.map((w, j) => (j === i ? Math.max(0, w + delta) : w));
          const triedFigures = figuresOf(questions, linear(tried));
          if (better(triedFigures, figures)) {
            weights = tried;
            figures = triedFigures;
            moved = true;
          }
        }
      }
      if (!moved) step /= 2;
    }
    if (better(figures, best.figures)) best = { weights, figures };
  }
  return best;
}

function byCategory(questions: readonly Question[], score: (features: readonly number[]) => number) {
  const categories = [...new Set(questions.map((q) => q.category))].sort();
  const hitAt1 = (category: string) =>
    figuresOf(
      questions.filter((q) => q.category === category),
      score,
    ).hitAt1;
  return Object.fromEntries(categories.map((c) => [c, hitAt1(c)]));
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
      const relevant = new Set(q.relevant_session_ids);
      questions.push({
        category: q.category_name,
        relevant: result.candidates.map((c) => relevant.has(c.sessionId)),
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
      const { weights, figures } = fitWeights(questions, columns.length);
      return {
        name,
        ...figures,
        hitAt1ByCategory: byCategory(questions, linear(weights)),
        weights: Object.fromEntries(columns.map((column, i) => [column, round(weights[i] ?? 0)])),
      };
    });
    const out = {
      questions: questions.length,
      candidates: CANDIDATES,
      relevantAmongCandidates: round(questions.filter((q) => q.relevant.includes(true)).length / questions.length),
      shipped: { ...figuresOf(questions, shippedOrder), hitAt1ByCategory: byCategory(questions, shippedOrder) },
      fits,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
