// Vector arithmetic for embeddings: L2 normalisation, dot products over packed matrices, top-k selection,
// and the mapping from cosine to the calibrated 0..1 similarity every retriever reports. Pure.

/** A copy of `values` scaled to unit length; null when it has no direction (all zeros) or a non-finite value. */
export function normalizeL2(values: ArrayLike<number>): Float32Array | null {
  let sumOfSquares = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if (!Number.isFinite(value)) return null;
    sumOfSquares += value * value;
  }
  if (sumOfSquares === 0) return null;
  const scale = 1 / Math.sqrt(sumOfSquares);
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = (values[i] as number) * scale;
  return out;
}

/**
 * Cosine similarity of unit vectors mapped to the 0..1 similarity ranking expects. Raw cosines of
 * sentence-embedding models are compressed into a narrow band (nomic-embed-text: unrelated passages sit
 * around 0.3-0.45, close paraphrases reach 0.8-0.9), so the plain (cos + 1) / 2 would call everything
 * "70% similar". The map is linear from COSINE_FLOOR (and below) = 0 to COSINE_CEILING (and above) = 1,
 * which puts the model's "unrelated" band near 0.1-0.3 and its strong matches near 0.9-1, on the same
 * footing as the calibrated BM25 similarity.
 */
export const COSINE_FLOOR = 0.25;
export const COSINE_CEILING = 0.85;

export function similarityFromCosine(cosine: number): number {
  const scaled = (cosine - COSINE_FLOOR) / (COSINE_CEILING - COSINE_FLOOR);
  return Math.min(1, Math.max(0, scaled));
}

/** Dot product over the common length (= cosine for unit vectors). */
export function dotProduct(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let sum = 0;
  for (let k = 0; k < length; k++) sum += (a[k] as number) * (b[k] as number);
  return sum;
}

/** Indexes of the `k` highest finite scores, best first (ties: lower index first). */
export function topIndexes(scores: Float32Array, k: number): number[] {
  if (k <= 0) return [];
  // A small sorted buffer beats sorting every score: k is tens, rows are tens of thousands.
  const best: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i] as number;
    if (!Number.isFinite(score)) continue;
    if (best.length === k && score <= (scores[best[k - 1] as number] as number)) continue;
    let at = best.length;
    while (at > 0 && (scores[best[at - 1] as number] as number) < score) at--;
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}
