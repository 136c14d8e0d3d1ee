import { describe, expect, it } from "vitest";
import { buildSecretSamples, loadCleanFiles } from "../../../tests/fixtures/redaction/corpus.ts";
import { buildHeldOutCases } from "../../../tests/fixtures/redaction/held-out.ts";
import { countCapturingGroups, findPatternSecrets, findPrivateKeys, PATTERN_RULES } from "./patterns.ts";
import type { SecretSpan } from "./values.ts";

/** The plain way: every rule on its own over the whole text, as before the rules were combined for speed. */
function findOneRuleAtATime(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  findPrivateKeys(text, out);
  for (const rule of PATTERN_RULES) {
    if (rule.trigger !== undefined && !text.includes(rule.trigger)) continue;
    const pattern = new RegExp(rule.pattern.source, rule.pattern.flags);
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const context = match.length > 2 ? (match[1] ?? "") : "";
      const secret = match.length > 2 ? (match[2] ?? "") : match[0];
      const start = match.index + context.length;
      if (rule.accept !== undefined && !rule.accept(secret, text, match.index, start)) continue;
      out.push({ kind: rule.kind, start, end: start + secret.length, priority: rule.priority });
    }
  }
  return out;
}

const keys = (spans: SecretSpan[]): string[] =>
  [...new Set(spans.map((span) => `${span.kind}@${span.start}-${span.end}`))].sort();

describe("shape rules run together", () => {
  const texts = [
    ...buildSecretSamples().map((sample) => sample.text),
    ...buildHeldOutCases().map((item) => item.text),
    ...loadCleanFiles().map((file) => file.text),
    // two rules in one line: the combined scans must find both
    `curl -u ops:${"Cu9rlPass"} https://bot:${"Ur1Pass9"}@git.example.net && sshpass -p ${"Ss8hPass"} ssh host`,
  ];

  it("find exactly what each rule finds on its own", () => {
    const differences = texts.flatMap((text, index) => {
      const combined: SecretSpan[] = [];
      findPatternSecrets(text, combined);
      const alone = keys(findOneRuleAtATime(text));
      return JSON.stringify(keys(combined)) === JSON.stringify(alone)
        ? []
        : [{ index, combined: keys(combined), alone }];
    });
    expect(differences).toEqual([]);
  });

  it("redact an htpasswd SHA entry (a rule that starts outside a token run)", () => {
    const out: SecretSpan[] = [];
    findPatternSecrets(`admin:{SHA}${"W6ph5Mm5Pz8GgiULbPgzG37mj9g"}=`, out);
    expect(out.map((span) => span.kind)).toEqual(["password-hash"]);
  });
});

describe("countCapturingGroups", () => {
  const compiledCount = (source: string) => (new RegExp(`${source}|`).exec("")?.length ?? 1) - 1;

  it("counts what the compiled regex captures, for every shape rule", () => {
    for (const rule of PATTERN_RULES) {
      expect(countCapturingGroups(rule.pattern.source), rule.pattern.source).toBe(compiledCount(rule.pattern.source));
    }
  });

  it("skips escapes, character classes, non-capturing groups and look-arounds; counts named groups", () => {
    for (const source of [
      String.raw`\(a\)(b)`,
      String.raw`[(\]](c)[^)(]`,
      "(?:a)(?=b)(?!c)(?<=d)(?<!e)(f)",
      "(?<name>x)(?<other>y)z",
      String.raw`\\(g)`,
      String.raw`[\\](h)`,
      "",
    ]) {
      expect(countCapturingGroups(source), source).toBe(compiledCount(source));
    }
  });
});
