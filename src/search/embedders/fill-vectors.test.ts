import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { missingEmbedderPackages } from "../../../tests/helpers/embedder-packages.ts";
import { writeTinyEmbeddingModel } from "../../../tests/helpers/tiny-embedding-model.ts";
import { addChunk, addSession, bagOfWordsEmbedder, openContractDb } from "../../../tests/helpers/vector-fixtures.ts";
import { countMissingVectors, countVectors, decodeVector } from "../session-index/vectors.ts";
import { fillVectors } from "./fill-vectors.ts";
import { createNomicEmbedder } from "./nomic.ts";
import type { Embedder } from "./types.ts";

function corpus(chunks: number) {
  const { db, path } = openContractDb();
  addSession(db, "s");
  for (let i = 0; i < chunks; i++) addChunk(db, "s", `chunk number ${i} about topic ${i % 3}`);
  return { db, path };
}

// The real transformers.js and onnxruntime, from the test cache (tests/helpers/embedder-packages.ts).
const noPackages = missingEmbedderPackages() !== null;

describe("fillVectors", () => {
  it("embeds every chunk in batches, reports progress, and is resumable after an abort", async () => {
    const { db, path } = corpus(10);
    const embedder = bagOfWordsEmbedder();
    const controller = new AbortController();
    const progress: number[] = [];
    const first = await fillVectors({
      dbPath: path,
      embedder,
      batchSize: 4,
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p.embedded);
        controller.abort();
      },
    });
    expect(first).toMatchObject({ embedded: 4, remaining: 6, interrupted: true, model: embedder.id });
    expect(progress).toEqual([4]);
    const second = await fillVectors({
      dbPath: path,
      embedder,
      batchSize: 4,
      onProgress: (p) => progress.push(p.embedded),
    });
    expect(second).toMatchObject({ embedded: 6, remaining: 0, interrupted: false });
    expect(progress.slice(1)).toEqual([4, 6]);
    expect(embedder.calls.map((texts) => texts.length)).toEqual([4, 4, 2]);
    expect(countVectors(db, embedder.id)).toBe(10);
    expect((await fillVectors({ dbPath: path, embedder })).embedded).toBe(0);
    // A new model starts from scratch, beside the old model's vectors.
    expect((await fillVectors({ dbPath: path, embedder: bagOfWordsEmbedder(64, "other") })).embedded).toBe(10);
  });

  it("stays correct while a sync rewrites chunks between its read and its write", async () => {
    const { db, path } = corpus(6);
    const base = bagOfWordsEmbedder();
    let meddled = false;
    // Another connection (as `ctx index` would) deletes one chunk, edits another and adds one mid-batch.
    const meddling: Embedder = {
      ...base,
      embedDocuments: async (texts) => {
        if (!meddled) {
          meddled = true;
          const other = new DatabaseSync(path, { timeout: 5_000 });
          other.exec("DELETE FROM chunks WHERE text = 'chunk number 5 about topic 2'");
          other.exec("UPDATE chunks SET text = 'rewritten tail' WHERE text = 'chunk number 4 about topic 1'");
          other.close();
          addChunk(db, "s", "a brand new chunk");
        }
        return base.embedDocuments(texts);
      },
    };
    const summary = await fillVectors({ dbPath: path, embedder: meddling, batchSize: 3 });
    expect(summary.remaining).toBe(0);
    expect(countMissingVectors(db, base.id)).toBe(0);
    expect(countVectors(db, base.id)).toBe(6); // 6 - 1 deleted + 1 added
    // The edited chunk's vector is the vector of its new text.
    const row = db
      .prepare(
        "SELECT v.vector AS vector FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.text = 'rewritten tail'",
      )
      .get() as { vector: Uint8Array };
    const [expected] = await base.embedDocuments(["rewritten tail"]);
    expect(Array.from(decodeVector(row.vector))).toEqual(Array.from(expected as Float32Array));
  });

  it.skipIf(noPackages)("fills with the real nomic code path on a generated model", async () => {
    const { db, path } = corpus(3);
    const root = mkdtempSync(join(tmpdir(), "ctx-fill-model-"));
    writeTinyEmbeddingModel(root, "nomic-ai/nomic-embed-text-v1.5", { dimensions: 12 });
    const embedder = createNomicEmbedder({
      model: "nomic-ai/nomic-embed-text-v1.5",
      modelDir: root,
      allowDownload: false,
      batchSize: 2,
    });
    expect((await fillVectors({ dbPath: path, embedder })).embedded).toBe(3);
    const rows = db.prepare("SELECT vector FROM chunk_vectors").all() as Array<{ vector: Uint8Array }>;
    for (const row of rows) {
      const vector = decodeVector(row.vector);
      expect(vector).toHaveLength(12);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
  });

  it("says to index first when there is no index", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "ctx-fill-none-")), "index.db");
    const error = await rejectedCtxError(fillVectors({ dbPath: path, embedder: bagOfWordsEmbedder() }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.hint).toContain("ctx index");
  });
});
