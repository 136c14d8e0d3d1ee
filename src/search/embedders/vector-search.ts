// What the MCP tools and the CLI hand to searchSessions as its VectorSearch: undefined when no embedder is
// configured or no vector of its model exists yet (search is BM25 alone), else a cached search whose
// failures (Ollama down, model files removed) degrade to "no vector hits" with a warning, never to an error.
import type { Config } from "../../config/schema.ts";
import { describeError } from "../../errors.ts";
import { type Logger, silentLogger } from "../../log.ts";
import type { VectorSearch } from "../search-sessions.ts";
import type { SessionIndex } from "../session-index/session-index.ts";
import { countIndexVectors, createIndexVectorSearch } from "../session-index/vectors.ts";
import { createEmbedder } from "./create.ts";
import type { Embedder } from "./types.ts";

interface Prepared {
  embedder: Embedder | null;
  /** Keyed by the open index: one vector cache per index and embedder config. */
  searches: WeakMap<SessionIndex, VectorSearch>;
}

/** Per embedder config: loading a model costs seconds, so one embedder (and its vector cache) per process. */
const prepared = new Map<string, Prepared>();

export function vectorSearchFor(
  index: SessionIndex,
  config: Config,
  deps: { env?: NodeJS.ProcessEnv; logger?: Logger } = {},
): VectorSearch | undefined {
  if (config.embedder.provider === "none") return undefined;
  const logger = deps.logger ?? silentLogger;
  const key = JSON.stringify(config.embedder);
  let entry = prepared.get(key);
  if (entry === undefined) {
    let embedder: Embedder | null = null;
    try {
      embedder = createEmbedder(config.embedder, deps.env ? { env: deps.env } : {});
    } catch (error) {
      logger.warn(`vector search off: ${describeError(error)}`);
    }
    entry = { embedder, searches: new WeakMap() };
    prepared.set(key, entry);
  }
  const embedder = entry.embedder;
  if (embedder === null || countIndexVectors(index, embedder.id) === 0) return undefined;
  let search = entry.searches.get(index);
  if (search === undefined) {
    const inner = createIndexVectorSearch(index, embedder);
    search = async (query, limit, filters) => {
      try {
        return await inner(query, limit, filters);
      } catch (error) {
        logger.warn(`vector search skipped: ${describeError(error)}`);
        return [];
      }
    };
    entry.searches.set(index, search);
  }
  return search;
}
