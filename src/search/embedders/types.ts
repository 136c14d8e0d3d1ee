// The embedder interface every provider implements: texts in, L2-normalised Float32 vectors out.
// nomic-embed-text is trained with task prefixes; providers add them, callers pass plain text.

export interface Embedder {
  /** Key stored with every vector (`<provider>:<model>`): vectors of different models never mix. */
  readonly id: string;
  /** The provider's model name (a Hugging Face repo id, an Ollama model tag). */
  readonly model: string;
  /** Vector length; 0 until the first embedding when the model is not on disk yet (download, Ollama). */
  readonly dimensions: number;
  /** Embeds search queries (`search_query: ` prefix); one unit vector per text, in order. */
  embedQueries(texts: string[]): Promise<Float32Array[]>;
  /** Embeds indexed passages (`search_document: ` prefix); one unit vector per text, in order. */
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
}

export const QUERY_PREFIX = "search_query: ";
export const DOCUMENT_PREFIX = "search_document: ";

/** Splits `items` into runs of at most `size`. */
export function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
