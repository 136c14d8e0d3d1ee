// Memory markers of a chunk (product document "Smart Fork Detection"): did it hold a solution that worked, a
// pattern or convention worth reusing, or something left waiting? Each boosts the session in ranking, so the
// phrases are conservative: a false marker promotes a session for every query it matches.
// Precedence when several match: WORKING_SOLUTION > PATTERN > WAITING.
import type { MemoryType } from "./model.ts";

const WORKING_SOLUTION: readonly RegExp[] = [
  /\bthe (?:fix|solution|root cause|culprit) (?:was|is|turned out to be)\b/,
  /\b(?:that|this|it) (?:worked|works now|fixed it|did the trick|solved it)\b/,
  /(?<!\bnot )\b(?:all (?:the )?(?:\d+ )?|\d+ )(?:\w+ )?tests? (?:pass|passed|are passing|are green)\b/,
  /\btests? (?:pass|passes|are passing|is passing|are green) (?:now|again)\b/,
  /\b(?:now )?(?:passes|compiles|builds) (?:clean(?:ly)?|successfully)\b/,
  /\bfixed (?:it|the (?:bug|issue|problem|error|test))\b/,
  /\b(?:resolved|solved) the (?:bug|issue|problem|error)\b/,
  /\b(?:it|this|that|the (?:bug|issue|problem|error)) is (?:now )?fixed\b/,
];

const PATTERN: readonly RegExp[] = [
  /\b(?:the |a |this |our |common |existing )(?:design )?pattern (?:is|for|here|we|to)\b/,
  /\b(?:the |our |a |project |naming |coding )convention(?![\w-])/,
  /\bby convention\b/,
  /\bwe (?:always|never) \w+/,
  /\bwe (?:use|prefer) [\w.@/-]+ (?:for|to|over|instead)\b/,
  /\b(?:always|never) (?:use|run|commit|call|put|write|add|import|keep)\b/,
  /\bbest practice\b/,
  /\bthe (?:rule|idiom|approach) (?:is|here is)\b/,
];

const WAITING: readonly RegExp[] = [
  /\bwaiting (?:for|on)\b/,
  /\bblocked (?:on|by)\b/,
  /\bpending (?:review|approval|merge|response|reply)\b/,
  /\bcome back to (?:this|it|that)\b/,
  /\b(?:revisit|follow up on) (?:this|it|that) later\b/,
  /\bonce (?:the|they|we|he|she) (?:merge|approve|reply|respond|release)/,
  /\bon hold\b/,
];

/**
 * Every rule in one pattern: it matches where any rule does, and one scan of a chunk costs about a third of the 23
 * (most chunks have no marker; the rules were a tenth of indexing's CPU). Only a chunk it matches is read rule by rule.
 */
const ANY_RULE = new RegExp(
  [...WORKING_SOLUTION, ...PATTERN, ...WAITING].map((rule) => `(?:${rule.source})`).join("|"),
);

/** The chunk's marker, or null (the usual case). Case-insensitive; code blocks are not read (they say nothing). */
export function detectMemoryType(text: string): MemoryType | null {
  const prose = stripCodeBlocks(text).toLowerCase();
  if (!ANY_RULE.test(prose)) return null;
  if (WORKING_SOLUTION.some((rule) => rule.test(prose))) return "WORKING_SOLUTION";
  if (PATTERN.some((rule) => rule.test(prose))) return "PATTERN";
  if (WAITING.some((rule) => rule.test(prose))) return "WAITING";
  return null;
}

function stripCodeBlocks(text: string): string {
  return text.replace(/```[\s\S]*?(?:```|$)/g, " ");
}

/** The marker names people type (`ctx search --marker working-solution`), and the type each names. */
export const MARKER_NAMES: Readonly<Record<string, MemoryType>> = {
  "working-solution": "WORKING_SOLUTION",
  pattern: "PATTERN",
  waiting: "WAITING",
};

/** The types `names` name (comma-separated or repeated; `working_solution` and capitals work too); null for one it does not know. */
export function parseMarkerNames(names: readonly string[]): MemoryType[] | null {
  const types = new Set<MemoryType>();
  for (const name of names.flatMap((text) => text.split(","))) {
    const key = name.trim().toLowerCase().replaceAll("_", "-");
    if (key === "") continue;
    const type = MARKER_NAMES[key];
    if (type === undefined) return null;
    types.add(type);
  }
  return [...types];
}
