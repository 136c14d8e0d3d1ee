// The one token estimate for text that has not been sent yet (real `usage` wins wherever a transcript gives it:
// ARCHITECTURE.md "Conventions"). 4 characters per token, the product documents' rule; its error against real usage is
// measured by the benchmarks, not assumed.

export const CHARS_PER_TOKEN = 4;

/** Estimated tokens for `text`: ceil(UTF-16 length / 4); 0 for an empty string. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
