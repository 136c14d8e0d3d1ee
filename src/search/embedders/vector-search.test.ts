import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { missingEmbedderPackages } from "../../../tests/helpers/embedder-packages.ts";
import { writeTinyEmbeddingModel } from "../../../tests/helpers/tiny-embedding-model.ts";
import { addChunk, addSession, openContractDb } from "../../../tests/helpers/vector-fixtures.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { createLogger } from "../../log.ts";
import { ensureVectorTable, putVectors } from "../session-index/vectors.ts";
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

describe("vectorSearchFor", () => {
  it.skipIf(noPackages)("is undefined with no embedder, and until vectors of its model exist", async () => {
    const { db, path } = openContractDb();
    addSession(db, "s");
    addChunk(db, "s", "fix the bug");
    expect(vectorSearchFor({ db }, defaultConfig())).toBeUndefined();
    const modelDir = mkdtempSync(join(tmpdir(), "ctx-vs-models-"));
    writeTinyEmbeddingModel(modelDir, "nomic-ai/nomic-embed-text-v1.5");
    const config = nomicConfig(modelDir);
    expect(vectorSearchFor({ db }, config)).toBeUndefined();
    await fillVectors({
      dbPath: path,
      embedder: createEmbedder(config.embedder) as NonNullable<ReturnType<typeof createEmbedder>>,
    });
    const search = vectorSearchFor({ db }, config);
    expect(search).toBeDefined();
    expect(vectorSearchFor({ db }, config)).toBe(search); // one cached search per index and config
    const hits = await search?.("fix the bug", 5, {});
    expect(hits?.map((h) => h.text)).toEqual(["fix the bug"]);
  });

  it("is undefined (with a warning) when the configured model is missing", () => {
    const { db } = openContractDb();
    const logs: string[] = [];
    const logger = createLogger({ level: "warn", write: (line) => logs.push(line) });
    const config = nomicConfig(join(tmpdir(), "ctx-no-such-model-dir"));
    expect(vectorSearchFor({ db }, config, { logger })).toBeUndefined();
    expect(logs.join("\n")).toContain("vector search off: no embedding model");
  });

  it("degrades to no vector hits when the embedder fails at query time", async () => {
    const { db } = openContractDb();
    addSession(db, "s");
    const id = addChunk(db, "s", "x");
    ensureVectorTable(db);
    putVectors(db, "ollama:nomic-embed-text", [{ chunkId: id, vector: Float32Array.from([1, 0]) }]);
    const config = defaultConfig();
    // Nothing listens on port 1: every query embedding fails with ECONNREFUSED.
    config.embedder = { ...config.embedder, provider: "ollama", ollamaUrl: "http://127.0.0.1:1" };
    const logs: string[] = [];
    const logger = createLogger({ level: "warn", write: (line) => logs.push(line) });
    const search = vectorSearchFor({ db }, config, { logger });
    expect(search).toBeDefined();
    expect(await search?.("x", 5, {})).toEqual([]);
    expect(logs.join("\n")).toContain("vector search skipped: cannot reach Ollama");
  });
});
