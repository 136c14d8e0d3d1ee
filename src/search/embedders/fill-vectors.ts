// Background, incremental vector fill: embed the chunks that have no vector of the current model, a batch
// at a time, newest first. Safe beside a running sync (WAL; the embedding happens outside any transaction
// and each batch is written in one short one, skipping chunks that changed meanwhile) and resumable (what is
// written stays written; the next run starts from what is still missing). Stops between batches on abort.
import { existsSync } from "node:fs";
import { CtxError } from "../../errors.ts";
import { openVectorFillStore } from "../session-index/vector-fill.ts";
import type { Embedder } from "./types.ts";

export interface FillProgress {
  embedded: number;
  total: number;
  etaMs: number | null;
}

export interface FillSummary {
  embedded: number;
  remaining: number;
  model: string;
  durationMs: number;
  interrupted: boolean;
}

export interface FillVectorsOptions {
  dbPath: string;
  embedder: Embedder;
  /** Chunks read and embedded per round (default 32). */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: FillProgress) => void;
  now?: () => number;
}

export async function fillVectors(options: FillVectorsOptions): Promise<FillSummary> {
  const now = options.now ?? Date.now;
  const started = now();
  const model = options.embedder.id;
  if (!existsSync(options.dbPath)) {
    throw new CtxError("NOT_FOUND", `there is no session index at ${options.dbPath} yet`, {
      hint: "run `ctx index` first",
    });
  }
  const store = openVectorFillStore(options.dbPath);
  try {
    const total = store.countMissing(model);
    let embedded = 0;
    let interrupted = false;
    for (;;) {
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
      const batch = store.missing(model, options.batchSize ?? 32);
      if (batch.length === 0) break;
      const vectors = await options.embedder.embedDocuments(batch.map((chunk) => chunk.text));
      if (vectors.length !== batch.length) {
        throw new CtxError(
          "EMBEDDER_FAILED",
          `the embedder returned ${vectors.length} vectors for ${batch.length} texts`,
        );
      }
      // Written even when aborted meanwhile: the work is done, and keeping it is what makes a fill resumable.
      const rows = batch.map((chunk, i) => ({
        chunkId: chunk.chunkId,
        text: chunk.text,
        vector: vectors[i] as Float32Array,
      }));
      embedded += store.put(model, rows);
      const elapsed = now() - started;
      const done = Math.min(embedded, total);
      options.onProgress?.({
        embedded: done,
        total,
        etaMs: done > 0 ? Math.round((elapsed / done) * (total - done)) : null,
      });
    }
    return { embedded, remaining: store.countMissing(model), model, durationMs: now() - started, interrupted };
  } finally {
    store.close();
  }
}
