// The coding split's corpora (one global, one per person), its figures per kind (given and own queries apart), plain
// BM25 over whole sessions on the same corpora (the floor), and every rank-1 miss with what came first instead.
import type { CodingData, CodingQuery, CodingSession } from "./coding-data.ts";
import { buildBm25, readSessionText } from "./retrieval-bm25.ts";
import {
  firstRelevantRank,
  type QueryOutcome,
  type RetrievalMetrics,
  summarizeByCategory,
} from "./retrieval-metrics.ts";

/** The corpus of every session together. */
export const GLOBAL = "global";

/** One index's worth of the coding split: the sessions in its Claude folder and the queries asked of it. */
export interface CodingCorpus {
  /** "global", or the person's repository. */
  name: string;
  claudeDir: string;
  sessions: CodingSession[];
  queries: CodingQuery[];
}

/** What a search answered: session ids best first, and each one's message count. */
export interface Answer {
  ranked: string[];
  messages: number[];
}

/** Each query's answer, per setting ("global", "person"), keyed by query id; and the time a query took. */
export interface CodingAnswers {
  global: Map<string, Answer>;
  person: Map<string, Answer>;
  msPerQuery: number;
}

/** The figures the coding split reports per kind and overall. */
export type CodingMetrics = Pick<RetrievalMetrics, "queries" | "hitAt1" | "hitAt3" | "hitAt5" | "mrr" | "emptyAnswers">;

function codingMetrics(metrics: RetrievalMetrics): CodingMetrics {
  const { queries, hitAt1, hitAt3, hitAt5, mrr, emptyAnswers } = metrics;
  return { queries, hitAt1, hitAt3, hitAt5, mrr, emptyAnswers };
}

/** Overall and per kind, from each query's ranked ids (missing answers count as empty). */
export function summarizeCodingQueries(
  queries: readonly CodingQuery[],
  rankedOf: (query: CodingQuery) => readonly string[],
): { overall: CodingMetrics; byKind: Record<string, CodingMetrics> } {
  const outcomes: QueryOutcome[] = queries.map((q) => ({
    category: q.kind,
    ranked: rankedOf(q),
    relevant: q.relevant_session_ids,
    evidenceSessions: q.relevant_session_ids,
  }));
  const { overall, byCategory } = summarizeByCategory(outcomes);
  return {
    overall: codingMetrics(overall),
    byKind: Object.fromEntries(Object.entries(byCategory).map(([kind, m]) => [kind, codingMetrics(m)])),
  };
}

/** Given and own queries apart (own: null when there are none), each in both settings. */
export function summarizeCoding(data: CodingData, answers: Pick<CodingAnswers, "global" | "person">) {
  const bySource = (source: CodingQuery["source"]) => {
    const queries = data.queries.filter((q) => q.source === source);
    if (queries.length === 0) return null;
    return {
      global: summarizeCodingQueries(queries, (q) => answers.global.get(q.id)?.ranked ?? []),
      person: summarizeCodingQueries(queries, (q) => answers.person.get(q.id)?.ranked ?? []),
    };
  };
  return { given: bySource("given"), own: bySource("own") };
}

/** BM25 over each corpus's whole sessions (each person's corpus statistics its own, as a separate index's are). */
export function codingBaseline(data: CodingData, corpora: readonly CodingCorpus[]) {
  const answers: Pick<CodingAnswers, "global" | "person"> = { global: new Map(), person: new Map() };
  for (const corpus of corpora) {
    const bm25 = buildBm25(corpus.sessions.map((s) => ({ id: s.sessionId, text: readSessionText(s.path) })));
    const into = corpus.name === GLOBAL ? answers.global : answers.person;
    for (const q of corpus.queries) into.set(q.id, { ranked: bm25.rank(q.query), messages: [] });
  }
  return {
    description:
      "BM25 over whole sessions (user and assistant text, tool inputs; lines that are not JSON skipped): " +
      "lower-cased alphanumeric tokens, short stop-word list, k1 1.2, b 0.75",
    ...summarizeCoding(data, answers),
  };
}

export interface CodingMiss {
  setting: "global" | "person";
  source: CodingQuery["source"];
  id: string;
  kind: string;
  query: string;
  expected: string[];
  /** The first relevant session's rank in the answer; null: not in it. */
  expectedRank: number | null;
  /** Its message count, when it is in the answer. */
  expectedMessages: number | null;
  first: { id: string; messages: number } | null;
}

/** Every query, in either setting, whose first answer is not one of its sessions. */
export function codingMisses(data: CodingData, answers: Pick<CodingAnswers, "global" | "person">): CodingMiss[] {
  const misses: CodingMiss[] = [];
  for (const setting of ["global", "person"] as const) {
    for (const q of data.queries) {
      const answer = answers[setting].get(q.id) ?? { ranked: [], messages: [] };
      const rank = firstRelevantRank(answer.ranked, q.relevant_session_ids);
      if (rank === 1) continue;
      const topId = answer.ranked[0];
      misses.push({
        setting,
        source: q.source,
        id: q.id,
        kind: q.kind,
        query: q.query,
        expected: q.relevant_session_ids,
        expectedRank: rank,
        expectedMessages: rank === null ? null : (answer.messages[rank - 1] ?? null),
        first: topId === undefined ? null : { id: topId, messages: answer.messages[0] ?? 0 },
      });
    }
  }
  return misses;
}
