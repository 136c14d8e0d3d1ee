// Two ways of writing one word that the token stream (tokens.ts) reads as one, on both sides of every match:
// - a British spelling reads as the American one (`colour` -> `color`, `initialise` -> `initialize`), from the
//   `american-english` package's table (1,738 words; a pair listed both ways, `flyer` / `flier`, is left alone);
// - a negative contraction typed without its apostrophe reads as it does with one (`dont` -> `don t`, as `don't`
//   splits at the apostrophe), so a query typed fast matches the transcript's `don't` and the reverse.
// Both change the index's tokens: schema.ts READ_VERSION 2 reads every indexed transcript again. Pure.
import americanEnglish from "american-english";

/** Read at the first lookup: the built program parses the table then (build/spelling-table.ts). */
let british: Readonly<Record<string, string>> | undefined;

/**
 * The word's American spelling, or the word itself: the package's table as it is (values trimmed), a pair listed both
 * ways left alone.
 */
export function americanSpelling(word: string): string {
  british ??= americanEnglish.us_spelling;
  if (!Object.hasOwn(british, word)) return word;
  const american = (british[word] ?? "").trim();
  return american !== "" && !Object.hasOwn(british, american) ? american : word;
}

/** `xxnt` typed for `xxn't`: the part before the apostrophe, each form's own (`can't` is `can` + `t`, not `cann`). */
const CONTRACTED: ReadonlyMap<string, string> = new Map([
  ..."aren couldn didn doesn don hadn hasn haven isn mightn mustn needn shouldn wasn weren wouldn"
    .split(" ")
    .map((stem): [string, string] => [`${stem}t`, stem]),
  ["cant", "can"],
  ["wont", "won"],
  ["shant", "shan"],
  ["aint", "ain"],
]);

/**
 * The words a lower-case word stands for before stemming: the two halves of a negative contraction typed without its
 * apostrophe (`dont` -> ["don", "t"]), else the word in American spelling.
 */
export function wordForms(word: string): readonly string[] {
  const stem = CONTRACTED.get(word);
  if (stem !== undefined) return [stem, "t"];
  return [americanSpelling(word)];
}
