// The chain-quality lift a source session earns from its forks that paid off (docs/forks.md "Ranking"), in a module of
// its own so a search loads only this. Chain quality moves the score by at most the tie margin times its weight's
// share (0.05 x 0.3 / 1.0 = 1.5%), so the lift decides near-ties only. Pure.

/** Each paid-off fork closes this share of the gap between a source's chain quality and 1 (two: 0.5 -> 0.875). */
export const PAID_OFF_GAP_CLOSED = 0.5;

/** A source's chain quality lifted by its paid-off forks: each closes PAID_OFF_GAP_CLOSED of the gap to 1. */
export function liftChainQuality(chainQuality: number, paidOffForks: number): number {
  if (!(paidOffForks > 0)) return chainQuality;
  return 1 - (1 - chainQuality) * (1 - PAID_OFF_GAP_CLOSED) ** paidOffForks;
}
