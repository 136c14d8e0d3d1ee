// mulberry32: a small, fast, seeded PRNG. The one source of deterministic randomness for tests and benchmarks
// (the synthetic corpus, the tiny embedding model, the bridge chaos plan): a seed gives the same run every time.
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
