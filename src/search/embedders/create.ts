// Picks the embedder the config names. `none` (the default) means BM25 alone: no model, no network.
import { join } from "node:path";
import { ctxHome } from "../../config/paths.ts";
import type { Config } from "../../config/schema.ts";
import { createNomicEmbedder, DEFAULT_NOMIC_MODEL } from "./nomic.ts";
import { createOllamaEmbedder, DEFAULT_OLLAMA_MODEL } from "./ollama.ts";
import { importTransformersPackage } from "./transformers-package.ts";
import type { Embedder } from "./types.ts";

export interface EmbedderDeps {
  /** For the default model folder (`<CTX_HOME>/models`). */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  importTransformers?: () => Promise<unknown>;
}

/** The configured embedder, or null for provider `none`. Throws CtxError EMBEDDER_UNAVAILABLE when nomic's model folder is missing. */
export function createEmbedder(config: Config["embedder"], deps: EmbedderDeps = {}): Embedder | null {
  switch (config.provider) {
    case "none":
      return null;
    case "nomic":
      return createNomicEmbedder({
        model: config.model === "" ? DEFAULT_NOMIC_MODEL : config.model,
        modelDir: config.modelDir === "" ? join(ctxHome(deps.env ?? process.env), "models") : config.modelDir,
        allowDownload: config.allowDownload,
        batchSize: config.batchSize,
        importTransformers: deps.importTransformers ?? (() => importTransformersPackage(deps.env ?? process.env)),
      });
    case "ollama":
      return createOllamaEmbedder({
        url: config.ollamaUrl,
        model: config.model === "" ? DEFAULT_OLLAMA_MODEL : config.model,
        batchSize: config.batchSize,
        timeoutMs: config.timeoutMs,
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      });
  }
}
