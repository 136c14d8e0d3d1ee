import { describe, expect, it } from "vitest";
import { addChunk, addSession, bagOfWordsEmbedder, openContractDb } from "../../../tests/helpers/vector-fixtures.ts";
import {
  chunksMissingVectors,
  countVectors,
  createVectorSearch,
  decodeVector,
  encodeVector,
  ensureVectorTable,
  putVectors,
} from "./vectors.ts";

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (v) => v / norm);
};

async function embedAll(db: ReturnType<typeof openContractDb>["db"], embedder: ReturnType<typeof bagOfWordsEmbedder>) {
  const missing = chunksMissingVectors(db, embedder.id, 1_000);
  const vectors = await embedder.embedDocuments(missing.map((chunk) => chunk.text));
  return putVectors(
    db,
    embedder.id,
    missing.map((chunk, i) => ({ chunkId: chunk.chunkId, vector: vectors[i] as Float32Array, text: chunk.text })),
  );
}

describe("vector storage", () => {
  it("round-trips Float32 little-endian blobs", () => {
    const vector = unit(1, -2, 3.5);
    const bytes = encodeVector(vector);
    expect(bytes.byteLength).toBe(12);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getFloat32(4, true)).toBeCloseTo(vector[1] as number, 7);
    expect(Array.from(decodeVector(bytes))).toEqual(Array.from(vector));
  });

  it("lists chunks missing a vector of this model, newest first, and skips those that have one", () => {
    const { db } = openContractDb();
    ensureVectorTable(db);
    ensureVectorTable(db); // idempotent
    addSession(db, "s");
    const ids = [addChunk(db, "s", "one"), addChunk(db, "s", "two"), addChunk(db, "s", "three")];
    expect(chunksMissingVectors(db, "m", 10).map((c) => c.chunkId)).toEqual([...ids].reverse());
    expect(putVectors(db, "m", [{ chunkId: ids[2] as number, vector: unit(1, 0) }])).toBe(1);
    expect(chunksMissingVectors(db, "m", 10).map((c) => c.text)).toEqual(["two", "one"]);
    expect(chunksMissingVectors(db, "m", 1)).toHaveLength(1);
    // Another model's vector does not count.
    expect(chunksMissingVectors(db, "other", 10)).toHaveLength(3);
    expect(countVectors(db, "m")).toBe(1);
  });

  it("drops a chunk's vector when the chunk is deleted, and never stores one for a gone or changed chunk", () => {
    const { db } = openContractDb();
    ensureVectorTable(db);
    addSession(db, "s");
    const kept = addChunk(db, "s", "kept");
    const gone = addChunk(db, "s", "gone");
    putVectors(db, "m", [
      { chunkId: kept, vector: unit(1, 0) },
      { chunkId: gone, vector: unit(0, 1) },
    ]);
    db.prepare("DELETE FROM chunks WHERE id = ?").run(gone);
    expect(countVectors(db, "m")).toBe(1);
    expect(putVectors(db, "m", [{ chunkId: gone, vector: unit(0, 1) }])).toBe(0);
    expect(putVectors(db, "m", [{ chunkId: kept, vector: unit(0, 1), text: "edited meanwhile" }])).toBe(0);
    expect(countVectors(db, "m")).toBe(1);
  });
});

describe("createVectorSearch", () => {
  function corpus() {
    const { db } = openContractDb();
    ensureVectorTable(db);
    addSession(db, "auth", { project: "-web", updatedAt: 5_000, tags: ["typescript"] });
    addSession(db, "db", { project: "-api", updatedAt: 9_000, tags: ["python"] });
    addChunk(db, "auth", "login form oauth token refresh bug", { memoryType: "WORKING_SOLUTION" });
    addChunk(db, "auth", "css layout of the header");
    addChunk(db, "db", "sqlite migration adds an index on users");
    addChunk(db, "db", "token bucket rate limiter");
    return db;
  }

  it("ranks chunks by cosine with a 0..1 similarity and the chunk's fields", async () => {
    const db = corpus();
    const embedder = bagOfWordsEmbedder();
    expect(await embedAll(db, embedder)).toBe(4);
    const search = createVectorSearch(db, embedder);
    const hits = await search("oauth token refresh", 3, {});
    expect(hits.map((h) => h.text)).toEqual([
      "login form oauth token refresh bug",
      "token bucket rate limiter",
      expect.any(String),
    ]);
    expect(hits[0]).toMatchObject({ sessionId: "auth", chunkIndex: 0, memoryType: "WORKING_SOLUTION" });
    for (const hit of hits) expect(hit.similarity).toBeGreaterThanOrEqual(0);
    expect(hits[0]?.similarity).toBeGreaterThan(hits[1]?.similarity as number);
    expect(hits[0]?.similarity).toBeLessThanOrEqual(1);
  });

  it("honours project, since/until and tag filters", async () => {
    const db = corpus();
    const embedder = bagOfWordsEmbedder();
    await embedAll(db, embedder);
    const search = createVectorSearch(db, embedder);
    const sessions = async (filters: Parameters<typeof search>[2]) =>
      [...new Set((await search("token", 10, filters)).map((h) => h.sessionId))].sort();
    expect(await sessions({})).toEqual(["auth", "db"]);
    expect(await sessions({ projects: ["-api"] })).toEqual(["db"]);
    expect(await sessions({ projects: [] })).toEqual([]);
    expect(await sessions({ since: 6_000 })).toEqual(["db"]);
    expect(await sessions({ until: 6_000 })).toEqual(["auth"]);
    expect(await sessions({ tags: ["typescript"] })).toEqual(["auth"]);
  });

  it("sees vectors added, replaced and deleted after its first search", async () => {
    const db = corpus();
    const embedder = bagOfWordsEmbedder();
    const search = createVectorSearch(db, embedder);
    expect(await search("token", 5, {})).toEqual([]); // no vectors yet
    await embedAll(db, embedder);
    expect((await search("sqlite migration", 1, {}))[0]?.sessionId).toBe("db");
    // A re-chunked tail: the chunk is deleted and a new one takes the same id with other text.
    const id = (db.prepare("SELECT id FROM chunks WHERE text LIKE 'sqlite%'").get() as { id: number }).id;
    db.prepare("DELETE FROM chunks WHERE id = ?").run(id);
    expect((await search("sqlite migration", 5, {})).some((h) => h.chunkId === id)).toBe(false);
    addChunk(db, "db", "kubernetes helm chart", { id });
    await embedAll(db, embedder);
    const [best] = await search("kubernetes helm", 1, {});
    expect(best).toMatchObject({ chunkId: id, text: "kubernetes helm chart" });
    expect(best?.similarity).toBeGreaterThan(0.5);
  });

  it("ignores vectors of another model and returns nothing without the table", async () => {
    const { db } = openContractDb();
    const embedder = bagOfWordsEmbedder();
    expect(await createVectorSearch(db, embedder)("x", 5, {})).toEqual([]);
    ensureVectorTable(db);
    addSession(db, "s");
    const id = addChunk(db, "s", "x");
    putVectors(db, "other-model", [{ chunkId: id, vector: (await embedder.embedDocuments(["x"]))[0] as Float32Array }]);
    expect(await createVectorSearch(db, embedder)("x", 5, {})).toEqual([]);
  });
});
