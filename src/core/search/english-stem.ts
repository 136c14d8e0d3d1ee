// The Porter stemmer (M.F. Porter, "An algorithm for suffix stripping", 1980), for the search token stream:
// `painting`, `painted` and `paints` all become `paint`, so a query finds the other inflections of its words.
// Only lower-case ASCII words of 3+ letters are stemmed; anything else (digits, other scripts, identifiers'
// whole forms) passes through unchanged. Pure.

const VOWELS = new Set(["a", "e", "i", "o", "u"]);

function isConsonant(word: string, i: number): boolean {
  const c = word[i] as string;
  if (VOWELS.has(c)) return false;
  return c === "y" ? i === 0 || !isConsonant(word, i - 1) : true;
}

/** Porter's m: the number of vowel-consonant sequences in word[0..end]. */
function measure(word: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i <= end && isConsonant(word, i)) i++;
  while (i <= end) {
    while (i <= end && !isConsonant(word, i)) i++;
    if (i > end) break;
    m++;
    while (i <= end && isConsonant(word, i)) i++;
  }
  return m;
}

function hasVowel(word: string, end: number): boolean {
  for (let i = 0; i <= end; i++) if (!isConsonant(word, i)) return true;
  return false;
}

const endsDoubleConsonant = (w: string) => w.length >= 2 && w.at(-1) === w.at(-2) && isConsonant(w, w.length - 1);

/** consonant-vowel-consonant at the end, the last not w, x or y (`hop`, not `snow`). */
function endsCvc(word: string, end: number): boolean {
  if (end < 2 || !isConsonant(word, end) || isConsonant(word, end - 1) || !isConsonant(word, end - 2)) return false;
  const c = word[end];
  return c !== "w" && c !== "x" && c !== "y";
}

const STEP2: readonly (readonly [string, string])[] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];
const STEP3: readonly (readonly [string, string])[] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];
const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

/** Replaces the first matching suffix when the stem before it has measure > minMeasure. */
function replaceSuffix(word: string, rules: readonly (readonly [string, string])[], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem, stem.length - 1) > minMeasure ? stem + replacement : word;
  }
  return word;
}

function step1(word: string): string {
  let w = word;
  if (w.endsWith("sses") || w.endsWith("ies")) w = w.slice(0, -2);
  else if (!w.endsWith("ss") && w.endsWith("s")) w = w.slice(0, -1);
  let trimmed = false;
  if (w.endsWith("eed")) {
    if (measure(w, w.length - 4) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -2);
    trimmed = true;
  } else if (w.endsWith("ing") && hasVowel(w, w.length - 4)) {
    w = w.slice(0, -3);
    trimmed = true;
  }
  if (trimmed) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (endsDoubleConsonant(w) && !["l", "s", "z"].includes(w.at(-1) as string)) w = w.slice(0, -1);
    else if (measure(w, w.length - 1) === 1 && endsCvc(w, w.length - 1)) w += "e";
  }
  if (w.endsWith("y") && hasVowel(w, w.length - 2)) w = `${w.slice(0, -1)}i`;
  return w;
}

function step4(word: string): string {
  for (const suffix of STEP4) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (measure(stem, stem.length - 1) <= 1) return word;
    if (suffix === "ion" && !(stem.endsWith("s") || stem.endsWith("t"))) return word;
    return stem;
  }
  return word;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith("e")) {
    const m = measure(w, w.length - 2);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 2))) w = w.slice(0, -1);
  }
  if (w.endsWith("ll") && measure(w, w.length - 1) > 1) w = w.slice(0, -1);
  return w;
}

const STEMMABLE = /^[a-z]{3,}$/;

export function stemEnglish(word: string): string {
  if (!STEMMABLE.test(word)) return word;
  return step5(step4(replaceSuffix(replaceSuffix(step1(word), STEP2, 0), STEP3, 0)));
}
