// Embeddings from a local Ollama server: POST <ollamaUrl>/api/embed {model, input: [...]} -> {embeddings}.
// The task prefixes nomic-embed-text expects are added here (Ollama passes text through unchanged);
// vectors are re-normalised, since callers rely on unit length for cosine by dot product.
import * as z from "zod/mini";
import { normalizeL2 } from "../../core/search/vector-math.ts";
import { CtxError, describeError } from "../../errors.ts";
import { batchesOf, DOCUMENT_PREFIX, type Embedder, QUERY_PREFIX } from "./types.ts";

export const DEFAULT_OLLAMA_MODEL = "nomic-embed-text";

const OllamaEmbedResponseSchema = z.object({ embeddings: z.array(z.array(z.number())) });
type OllamaEmbedResponse = z.infer<typeof OllamaEmbedResponseSchema>;

export interface OllamaOptions {
  url: string;
  model: string;
  batchSize: number;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export function createOllamaEmbedder(options: OllamaOptions): Embedder {
  const endpoint = `${options.url.replace(/\/+$/, "")}/api/embed`;
  const fetchImpl = options.fetch ?? fetch;
  let dimensions = 0;

  const request = async (input: string[]): Promise<OllamaEmbedResponse> => {
    let response: Response;
    try {
      response = await fetchImpl(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: options.model, input, truncate: true }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError") {
        throw new CtxError("EMBEDDER_FAILED", `Ollama did not answer within ${options.timeoutMs} ms (${endpoint})`, {
          hint: "the model may still be loading: retry, or raise embedder.timeoutMs",
          cause: error,
        });
      }
      throw new CtxError("EMBEDDER_UNAVAILABLE", `cannot reach Ollama at ${endpoint}: ${describeCause(error)}`, {
        hint: `start it (\`ollama serve\`) and pull the model (\`ollama pull ${options.model}\`), or fix embedder.ollamaUrl`,
        cause: error,
      });
    }
    const body = await response.text().catch(() => "");
    if (!response.ok) {
      const detail = ollamaErrorText(body) ?? `HTTP ${response.status}`;
      const missingModel = response.status === 404 || /not found/i.test(detail);
      throw new CtxError(
        missingModel ? "EMBEDDER_UNAVAILABLE" : "EMBEDDER_FAILED",
        `Ollama refused the embedding request: ${detail}`,
        {
          hint: missingModel
            ? `pull the model first: \`ollama pull ${options.model}\``
            : "check the Ollama server's log; `ctx doctor` shows the embedder settings",
        },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new CtxError("EMBEDDER_FAILED", `Ollama answered with something that is not JSON (${endpoint})`, {
        hint: "embedder.ollamaUrl must point at an Ollama server",
      });
    }
    const parsed = OllamaEmbedResponseSchema.safeParse(json);
    if (!parsed.success) {
      throw new CtxError("EMBEDDER_FAILED", `Ollama's answer has no embeddings array (${endpoint})`, {
        hint: "update Ollama (0.3.4 or later has /api/embed), or check embedder.ollamaUrl",
      });
    }
    return parsed.data;
  };

  const embedBatch = async (input: string[]): Promise<Float32Array[]> => {
    const { embeddings } = await request(input);
    if (embeddings.length !== input.length) {
      throw new CtxError(
        "EMBEDDER_FAILED",
        `Ollama returned ${embeddings.length} embeddings for ${input.length} texts`,
      );
    }
    return embeddings.map((values) => {
      if (dimensions === 0) dimensions = values.length;
      if (values.length !== dimensions) {
        throw new CtxError("EMBEDDER_FAILED", `Ollama returned a ${values.length}-dim vector, expected ${dimensions}`, {
          hint: "was embedder.model changed while vectors were being filled? run `ctx embed` again",
        });
      }
      const vector = normalizeL2(values);
      if (vector === null) throw new CtxError("EMBEDDER_FAILED", "Ollama returned a zero or non-finite vector");
      return vector;
    });
  };

  const embed = async (prefix: string, texts: string[]): Promise<Float32Array[]> => {
    const vectors: Float32Array[] = [];
    for (const batch of batchesOf(texts, options.batchSize)) {
      vectors.push(...(await embedBatch(batch.map((text) => `${prefix}${text}`))));
    }
    return vectors;
  };

  return {
    id: `ollama:${options.model}`,
    model: options.model,
    get dimensions() {
      return dimensions;
    },
    embedQueries: (texts) => embed(QUERY_PREFIX, texts),
    embedDocuments: (texts) => embed(DOCUMENT_PREFIX, texts),
  };
}

function ollamaErrorText(body: string): string | null {
  try {
    const value = JSON.parse(body) as { error?: unknown };
    return typeof value.error === "string" ? value.error : null;
  } catch {
    return body.trim() === "" ? null : body.trim().slice(0, 200);
  }
}

/** fetch wraps the socket error (ECONNREFUSED, ENOTFOUND) in a TypeError("fetch failed"); show the real one. */
function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return describeError(error);
}
