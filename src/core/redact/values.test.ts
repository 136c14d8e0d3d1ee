import { describe, expect, it } from "vitest";
import { createGenerator } from "../../../tests/fixtures/redaction/fake-secrets.ts";
import { isPlaceholderValue, looksLikeRandomSecret, shannonEntropy } from "./values.ts";

describe("placeholders", () => {
  it.each([
    "********",
    "xxxx",
    "<token>",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell placeholder is the point of the test
    "${TOKEN}",
    "$TOKEN",
    "{{ secrets.X }}",
    "your-api-key-here",
    "changeme",
    "password",
  ])("%j is a placeholder", (value) => {
    expect(isPlaceholderValue(value)).toBe(true);
  });

  it("a random value is not", () => {
    expect(isPlaceholderValue("Zq8Xw7Vu6Ts5Rq4Po3Nm")).toBe(false);
  });
});

describe("randomness", () => {
  it("computes Shannon entropy", () => {
    expect(shannonEntropy("aaaa")).toBe(0);
    expect(shannonEntropy("abcd")).toBe(2);
  });

  it("accepts nearly all random tokens of 20 to 64 characters", () => {
    const g = createGenerator(7);
    let accepted = 0;
    let total = 0;
    for (const length of [20, 24, 32, 40, 64]) {
      for (let i = 0; i < 400; i += 1) {
        total += 3;
        if (looksLikeRandomSecret(g.alnum(length))) accepted += 1;
        if (looksLikeRandomSecret(g.base64url(length))) accepted += 1;
        if (looksLikeRandomSecret(`${g.hex(length - 1)}${g.digits(1)}`)) accepted += 1;
      }
    }
    expect(accepted / total).toBeGreaterThan(0.98);
  });

  it.each([
    "tokenUsageByModelAndDay2026",
    "getTokenCountForMessages2",
    "SecretsManagerClientConfigurationV3",
    "PASSWORD_RESET_TOKEN_TTL_SECONDS",
    "ephemeral_5m_input_tokens",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaa1",
    "short1A",
  ])("rejects %s", (token) => {
    expect(looksLikeRandomSecret(token)).toBe(false);
  });
});
