// What makes a sentence worth keeping in an extractive summary: file paths, identifiers, error wording,
// numbers, requests and decisions. Shared by the per-message summariser and the aggregate fold.

const EXTENSIONS =
  "ts|tsx|js|jsx|mjs|cjs|json|jsonl|md|ex|exs|heex|eex|py|rs|go|rb|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|" +
  "yml|yaml|toml|ini|env|lock|css|scss|html|sql|txt|csv|xml|vue|svelte|lua|dart|scala|ctx|log|conf|cfg|gradle|tf";
/** URLs, `/abs/path`, `./rel`, and `dir/file.ext` or `file.ext` with a known extension. */
const PATH = new RegExp(
  `https?://[^\\s)\\]>"'\`]+|(?:~|\\.{1,2})?/(?:[\\w@.+-]+/)*[\\w@.+-]+|\\b[\\w@+-][\\w@.+/-]*\\.(?:${EXTENSIONS})\\b`,
  "g",
);
/** `code`, camelCase, PascalCase with an inner capital, snake_case, kebab-case with a digit or many parts, Mod.Name. */
const IDENTIFIER =
  /`[^`\n]{1,80}`|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)+\b|\b[a-z][a-z0-9]*(?:-[a-z0-9]+){1,}\.\d+\b/g;
export const ERROR_WORDS =
  /\b(error|errors|fail(?:s|ed|ure|ures|ing)?|exception|cannot|can't|couldn't|unable|denied|refused|rejected|not found|no such|invalid|missing|undefined|crash(?:ed|es)?|panic|timed? ?out|warning|broken|bug|E[A-Z]{3,})\b|\b[A-Z][a-zA-Z]*Error\b|\bexit code [1-9]\d*/i;
const NUMBER = /\b\d+(?:[.,:]\d+)*\b/;
const REQUEST_START =
  /^(please\b|can you|could you|would you|let's|lets|add|fix|create|update|remove|delete|run|make|implement|write|change|use|refactor|rename|move|check|test|start|stop|continue|investigate|debug|explain|show|find|try|install|set ?up|work on|commit|push|merge|deploy)\b/i;
const DECISION =
  /\b(decided|decision|agreed|chose|choose|go(?:ing)? with|instead of|rather than|we'll|i'll use|will use|the (approach|plan|fix|solution) (is|will be)|root cause|because|prefer|always|never|must|should not|don't)\b/i;

/** Paths in `text`; a path cut short by a truncation (`…` right after it) is not one. */
export function pathsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(PATH)) {
    if (text[match.index + match[0].length] === "…") continue;
    const path = match[0].replace(/[.,:;]+$/, "");
    if (path.length > 2) found.push(path);
  }
  return unique(found);
}

/** `…/live/session_live.ex` for a long absolute path: the last segments say which file it is. */
export function shortenPath(path: string, segments = 3): string {
  const parts = path.split("/");
  return parts.length > segments + 1 ? `…/${parts.slice(-segments).join("/")}` : path;
}

export function identifiersIn(text: string): string[] {
  return unique((text.match(IDENTIFIER) ?? []).map((id) => id.replace(/^`|`$/g, "")).filter((id) => id.length > 2));
}

export interface UnitScore {
  score: number;
  paths: number;
  identifiers: number;
  error: boolean;
}

export interface ScoreContext {
  role: "user" | "assistant";
  /** Terms of the neighbouring messages: a sentence that refers to them matters more. */
  contextTerms: ReadonlySet<string>;
}

/** How much a unit (sentence, bullet, line) carries, before its length is taken into account. */
export function scoreUnit(unit: string, context: ScoreContext): UnitScore {
  const pathList = pathsIn(unit);
  const idList = identifiersIn(unit);
  const paths = pathList.length;
  const identifiers = idList.length;
  const error = ERROR_WORDS.test(unit);
  let score = 0.5;
  score += Math.min(paths, 3) * 3;
  score += Math.min(identifiers, 4) * 1.5;
  if (error) score += 3;
  if (NUMBER.test(unit)) score += 1;
  if (DECISION.test(unit)) score += 2.5;
  if (context.role === "user" && (REQUEST_START.test(unit.trim()) || unit.trim().endsWith("?"))) score += 3;
  if (context.contextTerms.size > 0) {
    let overlap = 0;
    for (const term of termsFrom(unit, pathList, idList)) if (context.contextTerms.has(term)) overlap += 1;
    score += Math.min(overlap, 3);
  }
  return { score, paths, identifiers, error };
}

/** Distinctive terms: paths, identifiers, and longer words, lower-cased. */
export function termsOf(text: string): Set<string> {
  return termsFrom(text, pathsIn(text), identifiersIn(text));
}

function termsFrom(text: string, paths: readonly string[], identifiers: readonly string[]): Set<string> {
  const terms = new Set<string>();
  for (const path of paths) terms.add(path.toLowerCase());
  for (const id of identifiers) terms.add(id.toLowerCase());
  for (const word of text.toLowerCase().match(/[a-z][a-z0-9_]{6,}/g) ?? []) {
    if (!COMMON_WORDS.has(word)) terms.add(word);
  }
  return terms;
}

const COMMON_WORDS = new Set([
  "because",
  "however",
  "something",
  "anything",
  "everything",
  "nothing",
  "already",
  "another",
  "between",
  "without",
  "through",
  "whether",
  "currently",
  "successfully",
  "actually",
  "probably",
  "following",
  "continue",
  "understand",
]);

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
