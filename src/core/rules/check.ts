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

export function checkRulesAgainstSummary(rules: readonly Rule[], summary: string, threshold = 0.6): RuleCheck[] {
  const normalisedSummary = ` ${normaliseForComparison(summary)} `;
  const summaryWords = new Set(contentWords(summary));
  return rules.map((rule) => {
    const normalisedRule = normaliseForComparison(rule.text);
    if (normalisedRule !== "" && normalisedSummary.includes(` ${normalisedRule} `)) {
      return { rule, fate: "kept", overlap: 1 };
    }
    const words = contentWords(rule.text);
    const present = words.filter((word) => summaryWords.has(word)).length;
    const overlap = words.length === 0 ? 0 : present / words.length;
    return { rule, fate: overlap >= threshold ? "paraphrased" : "lost", overlap: Math.round(overlap * 100) / 100 };
  });
}

/** The rules block re-injected after a compaction: every rule verbatim, with where it came from. */
export function renderRulesBlock(rules: readonly Rule[]): string {
  if (rules.length === 0) return "";
  return ["## Rules from CLAUDE.md marked (ENFORCED) or (CRITICAL), verbatim", ...rules.map((rule) => rule.text)].join(
    "\n",
  );
}
