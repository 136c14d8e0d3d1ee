// The session library's cost on search (issue 34: stars, tags and notes must add nothing measurable to warm search):
// two copies of one index of synthetic sessions (CTX_BENCH_LIBRARY_SESSIONS, default 2,000), one left plain and one
// with every fourth session starred, tagged and noted through the real flow (search/session-library.ts), searched
// in-process with the same queries, interleaved query by query so a change of load touches both alike. Also: what one
// library change costs (state file, backup, mirror), and a search filtered by a tag and by the star.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import type { SearchFilters } from "../src/core/search/model.ts";
import { searchSessions } from "../src/search/search-sessions.ts";
import { SCHEMA_VERSION } from "../src/search/session-index/schema.ts";
import { openSessionIndex, type SessionIndex } from "../src/search/session-index/session-index.ts";
import { updateLibrary } from "../src/search/session-library.ts";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { quantileMs } from "./process-timing.ts";
import { createRng } from "./synthetic-text.ts";
import { corpusVocabulary, ensureSyntheticCorpus } from "./synthetic-transcripts.ts";

const SESSIONS = Number(process.env.CTX_BENCH_LIBRARY_SESSIONS ?? 2_000);
const SIZE_FACTOR = 0.1;
const QUERIES = 40;
const ROUNDS = 3;
const LABELS = Array.from({ length: 10 }, (_, i) => `label-${i}`);

function percentiles(samples: readonly number[]) {
  const round = (n: number) => Math.round(n * 100) / 100;
  return { runs: samples.length, p50Ms: round(quantileMs(samples, 0.5)), p95Ms: round(quantileMs(samples, 0.95)) };
}

/** An index of the corpus: the cli bench's cached one when it exists (copied: it stays plain), else built here. */
async function indexHome(claudeDir: string, root: string, into: string): Promise<void> {
  mkdirSync(into, { recursive: true, mode: 0o700 });
  const cached = join(`${root}-ctx-home-v${SCHEMA_VERSION}`, "index.db");
  if (existsSync(cached) && !existsSync(`${cached}-wal`)) copyFileSync(cached, join(into, "index.db"));
  else await syncIndex({ claudeDir, dbPath: join(into, "index.db") });
}

export async function run(): Promise<Record<string, unknown>> {
  const corpus = ensureSyntheticCorpus({ sessions: SESSIONS, sizeFactor: SIZE_FACTOR, seed: 1 }, (line) =>
    process.stderr.write(`bench: ${line}\n`),
  );
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-library-"));
  const plainHome = join(dir, "plain");
  const annotatedHome = join(dir, "annotated");
  await indexHome(corpus.root, corpus.root, plainHome);
  mkdirSync(annotatedHome, { recursive: true, mode: 0o700 });
  copyFileSync(join(plainHome, "index.db"), join(annotatedHome, "index.db"));

  const vocabulary = corpusVocabulary(1);
  const rng = createRng(0x11b);
  const word = () => vocabulary.words[rng.int(50, 3_000)] ?? "retry";
  const queries = Array.from({ length: QUERIES }, () => Array.from({ length: rng.int(2, 4) }, word).join(" "));

  // Every fourth session starred, given two labels and a note of twelve corpus words, through the real flow.
  const plain = openSessionIndex(join(plainHome, "index.db"), { readonly: true });
  const ids = plain.recentSessions(SESSIONS).map((session) => session.id);
  const env = { CTX_HOME: annotatedHome };
  const deps = { env, now: () => new Date() };
  const changeMs: number[] = [];
  let annotated = 0;
  for (const [i, id] of ids.entries()) {
    if (i % 4 !== 0) continue;
    const labels = [LABELS[i % LABELS.length] as string, LABELS[(i * 7) % LABELS.length] as string];
    const started = performance.now();
    await updateLibrary(deps, id, { op: "star" });
    changeMs.push(performance.now() - started);
    await updateLibrary(deps, id, { op: "tag", tags: labels });
    await updateLibrary(deps, id, { op: "note", note: Array.from({ length: 12 }, word).join(" ") });
    annotated += 1;
  }
  const withNotes = openSessionIndex(join(annotatedHome, "index.db"), { readonly: true });

  const search = defaultConfig().search;
  const now = Date.now();
  const timeSearch = async (index: SessionIndex, query: string, filters: SearchFilters = {}) => {
    const started = performance.now();
    const results = await searchSessions(index, query, { limit: 5, search, now, filters });
    return { ms: performance.now() - started, results: results.length };
  };
  // A warm-up pass over both, then interleaved rounds.
  for (const q of queries) {
    await timeSearch(plain, q);
    await timeSearch(withNotes, q);
  }
  const samples = { plain: [] as number[], annotated: [] as number[], byTag: [] as number[], starred: [] as number[] };
  let tagResults = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, q] of queries.entries()) {
      samples.plain.push((await timeSearch(plain, q)).ms);
      samples.annotated.push((await timeSearch(withNotes, q)).ms);
      const byTag = await timeSearch(withNotes, q, { labels: [LABELS[i % LABELS.length] as string] });
      samples.byTag.push(byTag.ms);
      if (round === 0) tagResults += byTag.results;
      samples.starred.push((await timeSearch(withNotes, q, { starred: true })).ms);
    }
  }
  plain.close();
  withNotes.close();
  rmSync(dir, { recursive: true, force: true });
  const plainP50 = quantileMs(samples.plain, 0.5);
  return {
    sessions: ids.length,
    annotatedSessions: annotated,
    queries: queries.length,
    searchWarm: {
      plain: percentiles(samples.plain),
      annotated: percentiles(samples.annotated),
      annotatedOverPlainP50: Math.round((quantileMs(samples.annotated, 0.5) / plainP50) * 1000) / 1000,
      filteredByTag: { ...percentiles(samples.byTag), meanResults: tagResults / queries.length },
      filteredByStar: percentiles(samples.starred),
    },
    libraryChange: { note: "one `star` through the flow: state file, backup, index mirror", ...percentiles(changeMs) },
    loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}
