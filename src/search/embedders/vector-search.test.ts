import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { missingEmbedderPackages } from "../../../tests/helpers/embedder-packages.ts";
import { putFileRow } from "../../../tests/helpers/index-files.ts";
import { writeTinyEmbeddingModel } from "../../../tests/helpers/tiny-embedding-model.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { createLogger } from "../../log.ts";
import { databaseOf } from "../session-index/database.ts";
import { openSessionIndex, type SessionIndex } from "../session-index/session-index.ts";
import { ensureVectorTable, putVectors } from "../session-index/vectors.ts";
import { IndexWriter } from "../session-index/writer.ts";
import { createEmbedder } from "./create.ts";
import { fillVectors } from "./fill-vectors.ts";
import { vectorSearchFor } from "./vector-search.ts";

function nomicConfig(modelDir: string) {
  const config = defaultConfig();
  config.embedder = { ...config.embedder, provider: "nomic", modelDir };
  return config;
}

// The real transformers.js and onnxruntime, from the test cache (tests/helpers/embedder-packages.ts).
const noPackages = missingEmbedderPackages() !== null;

const open: SessionIndex[] = [];
afterEach(() => {
  for (const index of open.splice(0)) index.close();
});

/** A session index holding one session with a chunk of each text; the chunks' ids in order. */
function indexWith(...texts: string[]): { index: SessionIndex; path: string; ids: number[] } {
  const path = join(mkdtempSync(join(tmpdir(), "ctx-vs-index-")), "index.db");
  const index = openSessionIndex(path);
  open.push(index);
  const writer = new IndexWriter(index);
  writer.ensureSession("s", "-p", "/t/s.jsonl");
  const file = putFileRow(writer, "/t/s.jsonl", "s");
  for (const [i, text] of texts.entries()) {
    const chunk = { sessionId: "s", chunkIndex: i, firstMessage: i, lastMessage: i, text, tokenCount: 1 };
    writer.insertChunk({ ...chunk, hasCode: false, languages: [], memoryType: null }, file, 0, true);
  }
  const rows = databaseOf(index).prepare("SELECT id FROM chunks ORDER BY chunk_index").all() as Array<{ id: number }>;
  return { index, path, ids: rows.map((row) => Number(row.id)) };
}

describe("vectorSearchFor", () => {
  it.skipIf(noPackages)("is undefined with no embedder, and until vectors of its model exist", async () => {
    const { index, path } = indexWith("fix the bug");
    expect(vectorSearchFor(index, defaultConfig())).toBeUndefined();
    const modelDir = mkdtempSync(join(tmpdir(), "ctx-vs-models-"));
    writeTinyEmbeddingModel(modelDir, "nomic-ai/nomic-embed-text-v1.5");
    const config = nomicConfig(modelDir);
    expect(vectorSearchFor(index, config)).toBeUndefined();
    await fillVectors({
      dbPath: path,
      embedder: createEmbedder(config.embedder) as NonNullable<ReturnType<typeof createEmbedder>>,
    });
    const search = vectorSearchFor(index, config);
    expect(search).toBeDefined();
    expect(vectorSearchFor(index, config)).toBe(search); // one cached search per index and config
    const hits = await search?.("fix the bug", 5, {});
    expect(hits?.map((h) => h.text)).toEqual(["fix the bug"]);
  });

  it("is undefined (with a warning) when the configured model is missing", () => {
    const { index } = indexWith();
    const logs: string[] = [];
    const logger = createLogger({ level: "warn", write: (line) => logs.push(line) });
    const config = nomicConfig(join(tmpdir(), "ctx-no-such-model-dir"));
    expect(vectorSearchFor(index, config, { logger })).toBeUndefined();
    expect(logs.join("\n")).toContain("vector search off: no embedding model");
  });

  it("degrades to no vector hits when the embedder fails at query time", async () => {
    const { index, ids } = indexWith("x");
    ensureVectorTable(databaseOf(index));
    putVectors(databaseOf(index), "ollama:nomic-embed-text", [
      { chunkId: ids[0] as number, vector: Float32Array.from([1, 0]) },
    ]);
    const config = defaultConfig();
    // Nothing listens on port 1: every query embedding fails with ECONNREFUSED.
    config.embedder = { ...config.embedder, provider: "ollama", ollamaUrl: "http://127.0.0.1:1" };
    const logs: string[] = [];
    const logger = createLogger({ level: "warn", write: (line) => logs.push(line) });
    const search = vectorSearchFor(index, config, { logger });
    expect(search).toBeDefined();
    expect(await search?.("x", 5, {})).toEqual([]);
    expect(logs.join("\n")).toContain("vector search skipped: cannot reach Ollama");
  });
});
