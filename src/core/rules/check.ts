// Which (ENFORCED)/(CRITICAL) rules a compaction summary lost (pure). Method: both texts are normalised
// (lower case, markdown punctuation, bullets and the marker itself removed, whitespace collapsed). A rule whose
// normalised text occurs in the normalised summary is `kept`; otherwise its content words (3+ letters, minus
// common stop words) are looked up in the summary's words, and a rule with at least `threshold` of them
// present is `paraphrased`; below that it is `lost`.
import type { Rule } from "./claude-md.ts";

export type RuleFate = "kept" | "paraphrased" | "lost";

export interface RuleCheck {
  rule: Rule;
  fate: RuleFate;
  /** Share of the rule's content words found in the summary, 0..1 (1 for `kept`). */
  overlap: number;
}

const STOP_WORDS = new Set(
  "the and for are but not you your with this that from have has had was were will would should must can could all any its into onto than then them they their there these those when what which who why how also only just over such very use used using our out off per via about after before each every".split(
    " ",
  ),
);

export function normaliseForComparison(text: string): string {
  return text
    .toLowerCase()
    .replace(/\((enforced|critical)\)/g, " ")
    .replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6})\s+/gm, " ")
    .replace(/[`*_~>#|[\]()"'“”‘’:;,.!?]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function contentWords(text: string): string[] {
  const words = normaliseForComparison(text).match(/[\p{L}\p{N}][\p{L}\p{N}\-/]*/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 3 && !STOP_WORDS.has(word)))];
}

/** A summary prepared once for many comparisons (its normalised text and its content words). */
export interface PreparedSummary {
  normalised: string;
  words: ReadonlySet<string>;
}

export function prepareSummary(summary: string): PreparedSummary {
  return { normalised: ` ${normaliseForComparison(summary)} `, words: new Set(contentWords(summary)) };
}

/** The fate of one text (a rule, a task, a decision, …) in a prepared summary; the method is the header's. */
export function fateInSummary(
  text: string,
  summary: PreparedSummary,
  threshold: number,
): { fate: RuleFate; overlap: number } {
  const normalised = normaliseForComparison(text);
  if (normalised !== "" && summary.normalised.includes(` ${normalised} `)) return { fate: "kept", overlap: 1 };
  const words = contentWords(text);
  const present = words.filter((word) => summary.words.has(word)).length;
  const overlap = words.length === 0 ? 0 : present / words.length;
  return { fate: overlap >= threshold ? "paraphrased" : "lost", overlap: Math.round(overlap * 100) / 100 };
}

export function checkRulesAgainstSummary(rules: readonly Rule[], summary: string, threshold = 0.6): RuleCheck[] {
  const prepared = prepareSummary(summary);
  return rules.map((rule) => ({ rule, ...fateInSummary(rule.text, prepared, threshold) }));
}

/** The rules block re-injected after a compaction: every rule verbatim, with where it came from. */
export function renderRulesBlock(rules: readonly Rule[]): string {
  if (rules.length === 0) return "";
  return ["## Rules from CLAUDE.md marked (ENFORCED) or (CRITICAL), verbatim", ...rules.map((rule) => rule.text)].join(
    "\n",
  );
}
