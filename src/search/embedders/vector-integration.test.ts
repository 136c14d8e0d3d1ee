// The vector layer on the real session index: fixture transcripts synced by syncIndex, vectors filled with
// the nomic code path (generated model of the real layout), hybrid search through searchSessions, and a
// grown transcript re-synced: re-chunked chunks lose their vectors and only they are embedded again.
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layOutClaudeDir, SPOTTER_PROJECT } from "../../../tests/helpers/claude-projects.ts";
import { missingEmbedderPackages } from "../../../tests/helpers/embedder-packages.ts";
import { writeTinyEmbeddingModel } from "../../../tests/helpers/tiny-embedding-model.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { searchSessions } from "../search-sessions.ts";
import { databaseOf } from "../session-index/database.ts";
import { openSessionIndex } from "../session-index/session-index.ts";
import { countIndexVectors, countMissingVectors } from "../session-index/vectors.ts";
import { syncIndex } from "../sync/sync-index.ts";
import { createEmbedder } from "./create.ts";
import { fillVectors } from "./fill-vectors.ts";
import { vectorSearchFor } from "./vector-search.ts";

// The real transformers.js and onnxruntime, from the test cache (tests/helpers/embedder-packages.ts).
const noPackages = missingEmbedderPackages() !== null;

describe.skipIf(noPackages)("vectors on the real session index", () => {
  it("fill, fuse with BM25, and follow a grown transcript", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-vec-int-"));
    const claudeDir = layOutClaudeDir(root, { withLong: false });
    const dbPath = join(root, "ctx", "index.db");
    await syncIndex({ claudeDir, dbPath });
    const modelDir = join(root, "models");
    writeTinyEmbeddingModel(modelDir, "nomic-ai/nomic-embed-text-v1.5", { dimensions: 16 });
    const config = defaultConfig();
    config.embedder = { ...config.embedder, provider: "nomic", modelDir };
    const embedder = createEmbedder(config.embedder);
    if (embedder === null) throw new Error("expected an embedder");

    const filled = await fillVectors({ dbPath, embedder });
    const index = openSessionIndex(dbPath);
    try {
      const chunks = index.stats().chunks;
      expect(filled.embedded).toBe(chunks);
      expect(index.stats().vectors).toBe(chunks);

      const vectorSearch = vectorSearchFor(index, config);
      expect(vectorSearch).toBeDefined();
      const vectorHits = await vectorSearch?.("fix the failing test", 10, {});
      expect(vectorHits).toHaveLength(Math.min(10, chunks));
      const hybrid = await searchSessions(index, "test", {
        search: config.search,
        ...(vectorSearch ? { vectorSearch } : {}),
      });
      const lexical = await searchSessions(index, "test", { search: config.search });
      expect(hybrid.length).toBeGreaterThanOrEqual(lexical.length);
      for (const result of hybrid) expect(result.score).toBeGreaterThan(0);
      // Filters reach the vector side too.
      const filtered = await vectorSearch?.("anything", 50, { projects: [SPOTTER_PROJECT] });
      const projects = new Set(filtered?.map((hit) => index.getSession(hit.sessionId)?.project));
      expect([...projects]).toEqual([SPOTTER_PROJECT]);

      // The session grows: its tail is re-chunked, those chunks lose their vectors, the rest keep theirs.
      const file = join(claudeDir, "projects", SPOTTER_PROJECT, "short.jsonl");
      const lines = readFileSync(file, "utf8").trim().split("\n");
      appendFileSync(file, `${lines.slice(-2).join("\n")}\n`);
      await syncIndex({ claudeDir, dbPath });
      const missing = countMissingVectors(databaseOf(index), embedder.id);
      expect(missing).toBeGreaterThan(0);
      expect(missing).toBeLessThan(index.stats().chunks);
      const refill = await fillVectors({ dbPath, embedder });
      expect(refill.embedded).toBe(missing);
      expect(countIndexVectors(index, embedder.id)).toBe(index.stats().chunks);
      // Every vector belongs to a live chunk.
      const orphans = databaseOf(index)
        .prepare(
          "SELECT count(*) AS n FROM chunk_vectors v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)",
        )
        .get() as { n: number };
      expect(orphans.n).toBe(0);
    } finally {
      index.close();
    }
  });
});
