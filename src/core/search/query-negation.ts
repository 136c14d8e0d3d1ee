// What a person leaves out of a search: `-word`, `-"a phrase"`, "not about X", "without X", "except X": sessions
// whose text holds X are excluded (the session index's FTS table, search/session-index/rows.ts), and X is not searched
// for. Code queries are full of dashes, so a `-` negates only at the start of a word of letters that is no flag: not
// `re-index` or `ctx-hook` (inside a word), not `--force` (two dashes), not `-p` or `-rf` (two letters or fewer), not
// `-sSL` (a cluster of cased letters), not `-xzf` or `-race` after `tar` or `go test` (a command line's), not `-Dkey=v`
// (a value), not `-webkit-box` (a CSS prefix), not "the -exec option" (named as a flag).
// "without" and "except" in a question ("how did she feel without pain?") are part of what is asked. Pure.
import { quoteFtsTerm } from "./fts-query.ts";
import { tokenizeForSearch } from "./tokens.ts";

export interface QueryNegation {
  /** What to leave out, as written (a word or a phrase), in query order. */
  excluded: string[];
  /** The query without them, whitespace folded. */
  text: string;
}

/** Programs whose short flags follow them: `tar -xzf`, `ps -aux`, `ls -lah` are flags, not exclusions. */
const COMMANDS = new Set(
  (
    "apt apt-get awk bash brew bun cargo cat chmod chown claude cp ctx curl deno df docker du find gcc gh git go grep " +
    "head helm java jest journalctl jq kill kubectl less ln ls make mkdir mv node npm npx pip pip3 pnpm ps psql python " +
    "python3 rg rm rsync scp sed sh ssh sqlite3 sudo systemctl tail tar terraform tsc unzip uv vitest wget xargs yarn zip zsh"
  ).split(" "),
);

/** Programs whose single-dash flags are whole words (`java -version`, `find . -name`, `gcc -Wall`, `go test -count`). */
const WORD_FLAG_COMMANDS = new Set(
  "clang dig ffmpeg find gcc g++ go java javac kotlinc openssl qemu-img swift terraform test xcodebuild".split(" "),
);
/** Exclusions read from one query; past this many the rest stay words (each is a subquery of the search). */
export const MAX_EXCLUSIONS = 16;
const LOOK_AROUND = 64;
const FLAG_NOUN = /^\s+(?:flag|flags|option|options|switch|argument|parameter)\b/iu;
const WORD = "\\p{L}[\\p{L}\\p{N}_]*(?:-[\\p{L}\\p{N}_]+)*";
// `-word` or `-"phrase"` at the start of the query or after whitespace, ending at whitespace, punctuation or the end.
// Built on a query's first need (constructing them is most of this module's load; a query without NEGATION_HINT
// needs neither).
let dashed: RegExp | null = null;
const dashedPattern = (): RegExp =>
  (dashed ??= new RegExp(`(?<=^|\\s)-(?:"([^"]*)"|(${WORD}))(?=$|[\\s,;:!?)])`, "gu"));
// "not about X", "without X", "except (for) X", "excluding X": X is a quoted phrase or one to three words, up to
// punctuation or a joining word.
const JOINING = "and|or|but|with|in|on|for|from|since|before|after|about|that|which|when|where|while";
const PHRASE_WORD = `(?!(?:${JOINING})(?![\\p{L}\\p{N}]))[\\p{L}\\p{N}][\\p{L}\\p{N}_.#+/-]*`;
let spoken: RegExp | null = null;
const spokenPattern = (): RegExp =>
  (spoken ??= new RegExp(
    `(?<![\\p{L}\\p{N}_-])(not\\s+about|without|except(?:\\s+for)?|excluding)\\s+(?:"([^"]*)"|(${PHRASE_WORD}(?:\\s+${PHRASE_WORD}){0,2}))`,
    "giu",
  ));

export const NEGATION_HINT = /-|not|without|except|excluding/iu;

interface Span {
  start: number;
  end: number;
  excluded: string;
}

/** The query's exclusions and the words left to search. */
export function parseQueryNegation(query: string): QueryNegation {
  // Every exclusion holds a dash or one of the spoken words: a query with neither is left as it is before either
  // pattern runs (a cold search then compiles neither).
  if (!NEGATION_HINT.test(query)) return { text: query, excluded: [] };
  const spans: Span[] = [];
  // Where the last flag ended: a dashed word right after flags (`find . -name x -exec`) is one more.
  let flagEnd = -1;
  const dashedRe = dashedPattern();
  dashedRe.lastIndex = 0;
  for (let m = dashedRe.exec(query); m !== null; m = dashedRe.exec(query)) {
    const phrase = m[1];
    const word = m[2] ?? "";
    const end = m.index + m[0].length;
    if (spans.length >= MAX_EXCLUSIONS) break;
    // Bounded looks around the word: a hostile megabyte of dashes is read in linear time.
    const before = query.slice(Math.max(0, m.index - LOOK_AROUND), m.index);
    const afterFlag =
      flagEnd >= 0 && m.index - flagEnd < LOOK_AROUND && /^\s*\S*\s*$/u.test(query.slice(flagEnd, m.index));
    if (phrase === undefined && (afterFlag || looksLikeFlag(word, before, query.slice(end, end + LOOK_AROUND)))) {
      flagEnd = end;
      continue;
    }
    if (phrase !== undefined && phrase.trim() === "") continue;
    spans.push({ start: m.index, end, excluded: (phrase ?? word).trim() });
  }
  const question = /\?\s*$/u.test(query);
  const spokenRe = spokenPattern();
  spokenRe.lastIndex = 0;
  for (let m = spokenRe.exec(query); m !== null && spans.length < MAX_EXCLUSIONS; m = spokenRe.exec(query)) {
    const end = m.index + m[0].length;
    if (spans.some((s) => m !== null && m.index < s.end && end > s.start)) continue;
    if (question && !/^not/iu.test(m[1] ?? "")) continue;
    const excluded = (m[2] ?? m[3] ?? "").trim().replace(/[.,;:!?]+$/u, "");
    if (excluded === "") continue;
    spans.push({ start: m.index, end, excluded });
  }
  if (spans.length === 0) return { excluded: [], text: query };
  spans.sort((a, b) => a.start - b.start);
  let text = "";
  let at = 0;
  for (const span of spans) {
    text += `${query.slice(at, span.start)} `;
    at = span.end;
  }
  text += query.slice(at);
  return { excluded: spans.map((s) => s.excluded), text: text.replace(/\s+/g, " ").trim() };
}

function looksLikeFlag(word: string, before: string, after: string): boolean {
  if (word.length <= 2) return true;
  // `-webkit-appearance`: a CSS vendor prefix; "the -exec option": named as a flag.
  if (/^(?:webkit|moz|ms|o)-/iu.test(word) || FLAG_NOUN.test(after)) return true;
  // `-sSL`, `-fsSL`, `-Xmx`: cased letters inside a short cluster.
  if (word.length <= 5 && /\p{Lu}/u.test(word.slice(1))) return true;
  const previous = before.trim().split(/\s+/u).slice(-2);
  // After `--force` or `--out file`: a run of flags and their values.
  if (previous.some((token) => token.startsWith("--"))) return true;
  // `tar -xzf`, `go test -race`: a short cluster after a program's name; `java -version`, `find -name`: a program
  // whose flags are words. `docker -kubernetes` still excludes: docker's flags are letters or take two dashes.
  const commands = previous.map((token) => token.toLowerCase());
  if (word.length <= 4 && commands.some((token) => COMMANDS.has(token))) return true;
  return commands.some((token) => WORD_FLAG_COMMANDS.has(token));
}

/**
 * The FTS5 phrase that finds what is excluded, through the index's own tokenizer (as its chunks were): null when it
 * holds no searchable token.
 */
export function exclusionPhrase(excluded: string): string | null {
  const tokens = tokenizeForSearch(excluded).trim();
  return tokens === "" ? null : quoteFtsTerm(tokens);
}

/** Whether a text (a team chunk's, which the local index does not hold) holds an excluded phrase's tokens in order. */
export function mentionsExcluded(text: string, excluded: readonly string[]): boolean {
  if (excluded.length === 0) return false;
  const tokens = ` ${tokenizeForSearch(text)} `;
  return excluded.some((phrase) => {
    const wanted = tokenizeForSearch(phrase).trim();
    return wanted !== "" && tokens.includes(` ${wanted} `);
  });
}
