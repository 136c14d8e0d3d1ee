import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectedCtxError, thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import { missingEmbedderPackages } from "../../../tests/helpers/embedder-packages.ts";
import {
  expectedEmbedding,
  type TinyModel,
  writeTinyEmbeddingModel,
} from "../../../tests/helpers/tiny-embedding-model.ts";
import { createNomicEmbedder, DEFAULT_NOMIC_MODEL } from "./nomic.ts";
import type { Embedder } from "./types.ts";

// The real transformers.js and onnxruntime, from the test cache (tests/helpers/embedder-packages.ts).
const noPackages = missingEmbedderPackages() !== null;

let root: string;
let tiny: TinyModel;
let embedder: Embedder;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-nomic-"));
  tiny = writeTinyEmbeddingModel(root, DEFAULT_NOMIC_MODEL, { dimensions: 24 });
  embedder = createNomicEmbedder({ model: DEFAULT_NOMIC_MODEL, modelDir: root, allowDownload: false, batchSize: 2 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const norm = (v: Float32Array) => Math.hypot(...v);

describe.skipIf(noPackages)("nomic embedder on a generated model of the same layout", () => {
  it("reads the dimension from the model's config before loading anything", () => {
    expect(embedder.dimensions).toBe(24);
    expect(embedder.id).toBe(`nomic:${DEFAULT_NOMIC_MODEL}`);
  });

  it("returns one unit vector of the model's width per text, with the query prefix applied", async () => {
    const [vector] = await embedder.embedQueries(["fix the bug"]);
    expect(vector).toHaveLength(24);
    expect(norm(vector as Float32Array)).toBeCloseTo(1, 5);
    // Mean pooling over [CLS] search _ query : fix the bug [SEP], computed by hand from the generated weights.
    const expected = expectedEmbedding(tiny, "search_query: fix the bug");
    for (let k = 0; k < 24; k++) expect(vector?.[k]).toBeCloseTo(expected[k] as number, 5);
  });

  it("prefixes documents with search_document: (so a document differs from the same query)", async () => {
    const [document] = await embedder.embedDocuments(["fix the bug"]);
    const expected = expectedEmbedding(tiny, "search_document: fix the bug");
    for (let k = 0; k < 24; k++) expect(document?.[k]).toBeCloseTo(expected[k] as number, 5);
    const [query] = await embedder.embedQueries(["fix the bug"]);
    expect(Array.from(document as Float32Array)).not.toEqual(Array.from(query as Float32Array));
  });

  it("is deterministic across calls and batches (padding does not leak into the mean)", async () => {
    const texts = ["sqlite index", "fork the session after the bug fix", "x", "the"];
    const batched = await embedder.embedDocuments(texts);
    const single = await Promise.all(texts.map(async (text) => (await embedder.embedDocuments([text]))[0]));
    expect(batched).toHaveLength(4);
    batched.forEach((vector, i) => {
      for (let k = 0; k < 24; k++) expect(vector[k]).toBeCloseTo(single[i]?.[k] as number, 5);
      const expected = expectedEmbedding(tiny, `search_document: ${texts[i]}`);
      for (let k = 0; k < 24; k++) expect(vector[k]).toBeCloseTo(expected[k] as number, 5);
    });
    expect(Array.from(batched[0] as Float32Array)).not.toEqual(Array.from(batched[1] as Float32Array));
  });

  it("returns nothing for no texts", async () => {
    expect(await embedder.embedQueries([])).toEqual([]);
  });
});

describe("nomic embedder errors", () => {
  it("names the missing model folder and how to fill it, without touching the network", () => {
    const error = thrownCtxError(() =>
      createNomicEmbedder({
        model: DEFAULT_NOMIC_MODEL,
        modelDir: join(root, "nowhere"),
        allowDownload: false,
        batchSize: 4,
      }),
    );
    expect(error.code).toBe("EMBEDDER_UNAVAILABLE");
    expect(error.message).toContain(join(root, "nowhere", DEFAULT_NOMIC_MODEL));
    expect(error.hint).toContain("onnx/model_quantized.onnx");
    expect(error.hint).toContain("allowDownload");
  });

  it("reports a folder without ONNX weights", () => {
    const other = writeTinyEmbeddingModel(root, "someone/no-weights");
    rmSync(join(other.dir, "onnx"), { recursive: true });
    const error = thrownCtxError(() =>
      createNomicEmbedder({ model: "someone/no-weights", modelDir: root, allowDownload: false, batchSize: 4 }),
    );
    expect(error.message).toContain("onnx/model.onnx");
  });

  it("explains how to install the embedder's package when it is missing", async () => {
    const missing = createNomicEmbedder({
      model: DEFAULT_NOMIC_MODEL,
      modelDir: root,
      allowDownload: false,
      batchSize: 4,
      importTransformers: () => import("@huggingface/not-installed-package" as string),
    });
    const error = await rejectedCtxError(missing.embedQueries(["x"]));
    expect(error.code).toBe("EMBEDDER_UNAVAILABLE");
    expect(error.message).toContain("@huggingface/transformers");
    expect(error.hint).toContain("ctx embed --setup");
  });

  it.skipIf(noPackages)("reports damaged model files as a load failure, not a crash", async () => {
    const broken = writeTinyEmbeddingModel(root, "someone/broken");
    rmSync(join(broken.dir, "tokenizer.json"));
    const embedderOnBroken = createNomicEmbedder({
      model: "someone/broken",
      modelDir: root,
      allowDownload: false,
      batchSize: 4,
    });
    const error = await rejectedCtxError(embedderOnBroken.embedDocuments(["x"]));
    expect(error.code).toBe("EMBEDDER_UNAVAILABLE");
    expect(error.message).toContain("cannot load the model");
  });
});
