import { describe, expect, it } from "vitest";
import { checkRulesAgainstSummary, contentWords, normaliseForComparison, renderRulesBlock } from "./check.ts";
import type { Rule } from "./claude-md.ts";

const rule = (text: string): Rule => ({ text, marker: "ENFORCED", source: "/p/CLAUDE.md", line: 1 });

describe("rules against a compaction summary", () => {
  it("normalises markdown, the marker and whitespace away", () => {
    expect(normaliseForComparison("- **Use pnpm**, never `npm`. (ENFORCED)\n  Really.")).toBe(
      "use pnpm never npm really",
    );
    expect(contentWords("- Never push to the main branch (CRITICAL)")).toEqual(["never", "push", "main", "branch"]);
  });

  it("tells kept, paraphrased and lost rules apart", () => {
    const summary = [
      "This session is being continued from a previous conversation.",
      "The user insists: use pnpm, never npm.",
      "Never push directly to main.",
    ].join("\n");
    const checks = checkRulesAgainstSummary(
      [
        rule("- Use pnpm, never npm. (ENFORCED)"),
        rule("- Never push to the main branch (CRITICAL)"),
        rule("- Run migrations only against staging databases (ENFORCED)"),
      ],
      summary,
    );
    expect(checks.map((check) => [check.fate, check.overlap])).toEqual([
      ["kept", 1],
      ["paraphrased", 0.75],
      ["lost", 0],
    ]);
  });

  it("honours the threshold, and a rule of stop words alone is lost, not kept by accident", () => {
    const [check] = checkRulesAgainstSummary(
      [rule("- Never push to the main branch (CRITICAL)")],
      "never push main",
      0.8,
    );
    expect(check?.fate).toBe("lost");
    expect(checkRulesAgainstSummary([rule("- do it (ENFORCED)")], "something else")[0]?.fate).toBe("lost");
  });

  it("renders the re-injected block verbatim", () => {
    expect(renderRulesBlock([rule("- A (ENFORCED)\n  detail")])).toBe(
      "## Rules from CLAUDE.md marked (ENFORCED) or (CRITICAL), verbatim\n- A (ENFORCED)\n  detail",
    );
    expect(renderRulesBlock([])).toBe("");
  });
});
