// Vector search at scale: exact cosine top-50 in JS over 50,000 x 768 stored vectors (the size a nomic
// index of ~2,000 sessions reaches), with the first (cache-filling) query, warm queries, a filtered query,
// and the cost of storing the vectors. The query embedding itself is excluded (a fixed vector): with nomic
// it costs ~0.3-0.5 s on 2 cores, with Ollama whatever the server takes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { normalizeL2 } from "../src/core/search/vector-math.ts";
import type { Embedder } from "../src/search/embedders/types.ts";
import { createVectorSearch, ensureVectorTable, putVectors } from "../src/search/session-index/vectors.ts";

const CHUNKS = 50_000;
const DIMENSIONS = 768;
const SESSIONS = 2_000;
const QUERIES = 20;

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-vectors-"));
  try {
    const db = new DatabaseSync(join(dir, "index.db"));
    db.exec(`PRAGMA journal_mode = WAL;
      CREATE TABLE sessions(id TEXT PRIMARY KEY, project TEXT, updated_at INTEGER, tags TEXT);
      CREATE TABLE chunks(id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, chunk_index INTEGER, text TEXT, memory_type TEXT);`);
    const addSession = db.prepare("INSERT INTO sessions VALUES (?, ?, ?, '[]')");
    const addChunk = db.prepare("INSERT INTO chunks(session_id, chunk_index, text) VALUES (?, ?, ?)");
    db.exec("BEGIN");
    for (let s = 0; s < SESSIONS; s++) addSession.run(`s${s}`, `-project-${s % 20}`, s);
    for (let c = 0; c < CHUNKS; c++) addChunk.run(`s${c % SESSIONS}`, Math.floor(c / SESSIONS), `chunk ${c}`);
    db.exec("COMMIT");
    ensureVectorTable(db);

    const next = random(7);
    const vector = () => normalizeL2(Float32Array.from({ length: DIMENSIONS }, next)) as Float32Array;
    let start = performance.now();
    for (let first = 1; first <= CHUNKS; first += 1_000) {
      const rows = Array.from({ length: 1_000 }, (_, i) => ({ chunkId: first + i, vector: vector() }));
      putVectors(db, "bench", rows);
    }
    const storeMs = performance.now() - start;

    const query = vector();
    const embedder: Embedder = {
      id: "bench",
      model: "bench",
      dimensions: DIMENSIONS,
      embedQueries: async (texts) => texts.map(() => query),
      embedDocuments: async (texts) => texts.map(() => query),
    };
    const rssBefore = process.memoryUsage().rss;
    const search = createVectorSearch(db, embedder);
    start = performance.now();
    const firstHits = await search("q", 50, {});
    const firstQueryMs = performance.now() - start;
    const warm: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      start = performance.now();
      await search("q", 50, {});
      warm.push(performance.now() - start);
    }
    const filtered: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      start = performance.now();
      await search("q", 50, { projects: ["-project-3"] });
      filtered.push(performance.now() - start);
    }
    // Growth while a fill runs: 1,000 new vectors arrive between two queries.
    db.exec("BEGIN");
    for (let c = 0; c < 1_000; c++) addChunk.run("s0", 1_000 + c, `late ${c}`);
    db.exec("COMMIT");
    putVectors(
      db,
      "bench",
      Array.from({ length: 1_000 }, (_, i) => ({ chunkId: CHUNKS + 1 + i, vector: vector() })),
    );
    start = performance.now();
    await search("q", 50, {});
    const afterGrowthMs = performance.now() - start;
    db.close();
    return {
      vectors: CHUNKS,
      dimensions: DIMENSIONS,
      hits: firstHits.length,
      storeVectorsPerSecond: Math.round(CHUNKS / (storeMs / 1000)),
      firstQueryMs: Math.round(firstQueryMs),
      warmTop50P50Ms: Number(percentile(warm, 50).toFixed(1)),
      warmTop50P95Ms: Number(percentile(warm, 95).toFixed(1)),
      filteredTop50P50Ms: Number(percentile(filtered, 50).toFixed(1)),
      queryAfter1000NewVectorsMs: Math.round(afterGrowthMs),
      cacheRssMegabytes: Math.round((process.memoryUsage().rss - rssBefore) / 1024 / 1024),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
