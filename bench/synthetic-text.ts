// Seeded text for the synthetic transcript corpus: a Zipf-distributed vocabulary of English function words,
// pseudo-words and code identifiers, so the index sees a realistic term distribution (few very common terms,
// a long tail of rare ones) and the search benchmark can pick queries of known rarity.

import { seededRandom } from "../tests/helpers/seeded-random.ts";

/** A seeded PRNG with helpers (deterministic corpus for a given seed). */
export function createRng(seed: number) {
  const next = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const chance = (p: number) => next() < p;
  /** Roughly log-normal: most values near `median`, a long tail up to `max`. */
  const skewed = (median: number, max: number) =>
    Math.max(1, Math.min(max, Math.round(median * Math.exp((next() + next() + next() - 1.5) * 1.4))));
  const hex = (length: number) => {
    let out = "";
    while (out.length < length)
      out += Math.floor(next() * 0x100000000)
        .toString(16)
        .padStart(8, "0");
    return out.slice(0, length);
  };
  const uuid = () => {
    const h = hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  return { next, int, pick, chance, skewed, hex, uuid };
}
export type Rng = ReturnType<typeof createRng>;

const FUNCTION_WORDS = (
  "the a to of and in is for that it with on this we should be not as are can will if then so but when " +
  "now let me i you it's here there also just need see check run file test fix add use make update change"
).split(" ");

const SYLLABLES = (
  "ka ro mi tu se la ven dor pli qua zen tor mar fi lo gra bel cin dex fer hul jor kin lum nox pra rix sol " +
  "tam vex wil yor zan bri cal dun eth gor han isk jul kro lan mev nir orb pex quo rud sal tiv umb vor"
).split(" ");

export interface Vocabulary {
  words: string[];
  identifiers: string[];
  paths: string[];
}

/** A deterministic vocabulary: `size` pseudo-words (frequency rank = index) plus identifiers and paths. */
export function buildVocabulary(rng: Rng, size = 30_000): Vocabulary {
  const seen = new Set<string>(FUNCTION_WORDS);
  const words = [...FUNCTION_WORDS];
  while (words.length < size) {
    let word = "";
    const syllables = rng.int(2, 4);
    for (let i = 0; i < syllables; i++) word += rng.pick(SYLLABLES);
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const identifiers: string[] = [];
  for (let i = 0; i < 4_000; i++) {
    const a = words[rng.int(40, 3_000)] ?? "x";
    const b = words[rng.int(40, 8_000)] ?? "y";
    const style = i % 3;
    identifiers.push(style === 0 ? `${a}${cap(b)}` : style === 1 ? `${a}_${b}` : `${cap(a)}${cap(b)}`);
  }
  const exts = ["ts", "tsx", "py", "rs", "go", "md", "json", "sql"];
  const paths: string[] = [];
  for (let i = 0; i < 3_000; i++) {
    paths.push(
      `src/${words[rng.int(60, 500)]}/${words[rng.int(60, 5_000)]}-${words[rng.int(60, 9_000)]}.${rng.pick(exts)}`,
    );
  }
  return { words, identifiers, paths };
}

/** A Zipf-like draw (P(rank i) ~ 1/i): common words dominate, the tail stays reachable. */
export function zipfIndex(rng: Rng, size: number): number {
  return Math.min(size - 1, Math.floor(Math.exp(rng.next() * Math.log(size + 1))) - 1);
}

export function sentence(rng: Rng, vocabulary: Vocabulary, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const roll = rng.next();
    if (roll < 0.04) out.push(`\`${rng.pick(vocabulary.identifiers)}\``);
    else if (roll < 0.06) out.push(rng.pick(vocabulary.paths));
    else out.push(vocabulary.words[zipfIndex(rng, vocabulary.words.length)] ?? "word");
  }
  return `${out.join(" ")}.`;
}

export function paragraph(rng: Rng, vocabulary: Vocabulary, words: number): string {
  const sentences: string[] = [];
  let left = words;
  while (left > 0) {
    const n = Math.min(left, rng.int(6, 22));
    sentences.push(sentence(rng, vocabulary, n));
    left -= n;
  }
  const text = sentences.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function codeBlock(rng: Rng, vocabulary: Vocabulary, lines: number): string {
  const language = rng.pick(["ts", "python", "rust", "go", "bash", "sql"]);
  const body: string[] = [];
  for (let i = 0; i < lines; i++) {
    const id = rng.pick(vocabulary.identifiers);
    const other = rng.pick(vocabulary.identifiers);
    body.push(
      rng.pick([
        `const ${id} = await ${other}(${rng.int(0, 99)});`,
        `  if (${id}.length > ${rng.int(1, 500)}) return ${other};`,
        `function ${id}(input: string) {`,
        `  ${id}.${other}("${rng.pick(vocabulary.paths)}");`,
        "}",
        `export { ${id}, ${other} };`,
      ]),
    );
  }
  return `\`\`\`${language}\n${body.join("\n")}\n\`\`\``;
}
