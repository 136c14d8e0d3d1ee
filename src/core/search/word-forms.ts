// Two ways of writing one word that the token stream (tokens.ts) reads as one, on both sides of every match:
// - a British spelling reads as the American one (`colour` -> `color`, `initialise` -> `initialize`), from the
//   `american-english` package's table (1,738 words; a pair listed both ways, `flyer` / `flier`, is left alone);
// - a negative contraction typed without its apostrophe reads as it does with one (`dont` -> `don t`, as `don't`
//   splits at the apostrophe), so a query typed fast matches the transcript's `don't` and the reverse.
// Both change the index's tokens: schema.ts READ_VERSION 2 reads every indexed transcript again. Pure.
import { americanSpellings } from "./american-spellings.ts";

/** `xxnt` typed for `xxn't`: the part before the apostrophe, each form's own (`can't` is `can` + `t`, not `cann`). */
const CONTRACTED: readonly (readonly [string, string])[] = [
  ..."aren couldn didn doesn don hadn hasn haven isn mightn mustn needn shouldn wasn weren wouldn"
    .split(" ")
    .map((stem): [string, string] => [`${stem}t`, stem]),
  ["cant", "can"],
  ["wont", "won"],
  ["shant", "shan"],
  ["aint", "ain"],
];

/**
 * Every word with another form, and that form: made at the first lookup from the ready table (./american-spellings.ts),
 * one Map read a word after (indexing reads every word that its cache does not hold; a Map read costs less than an
 * object's).
 */
let forms: ReadonlyMap<string, string> | undefined;

function formsTable(): ReadonlyMap<string, string> {
  if (forms !== undefined) return forms;
  const table = new Map(Object.entries(americanSpellings()));
  for (const [typed, stem] of CONTRACTED) table.set(typed, `${stem} t`);
  forms = table;
  return table;
}

/** The word's American spelling, or the word itself. */
export function americanSpelling(word: string): string {
  const form = formsTable().get(word);
  return form === undefined || form.includes(" ") ? word : form;
}

/**
 * What a lower-case word is read as before stemming, when not as itself: its American spelling, or the two halves of a
 * negative contraction typed without its apostrophe (`dont` -> "don t"); undefined for most words.
 */
export function wordForm(word: string): string | undefined {
  return formsTable().get(word);
}

/** The words a lower-case word stands for before stemming (`dont` -> ["don", "t"], `colour` -> ["color"]). */
export function wordForms(word: string): readonly string[] {
  return wordForm(word)?.split(" ") ?? [word];
}
