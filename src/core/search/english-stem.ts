// The Porter stemmer (M.F. Porter, "An algorithm for suffix stripping", 1980), for the search token stream:
// `painting`, `painted` and `paints` all become `paint`, so a query finds the other inflections of its words.
// Only lower-case ASCII words of 3+ letters are stemmed; anything else (digits, other scripts, identifiers'
// whole forms) passes through unchanged. Pure. The algorithm is the `stemmer` package's: it gives the stems ctx's own
// implementation gave to every word of ctx's sources, docs and sample transcripts (18,163 words) but three made of a
// suffix alone (`ies`, `eed`, `sses`), and does it in half the time in a new process, whose search tokenizes the
// leading chunks before anything is optimized (bench/run.ts cli, `ctx search`).
import { stemmer } from "stemmer";

const STEMMABLE = /^[a-z]{3,}$/;

export function stemEnglish(word: string): string {
  return STEMMABLE.test(word) ? stemmer(word) : word;
}
