import { describe, expect, it } from "vitest";
import { ENCODED_SECRET_KIND, findEncodedSecrets } from "./encoded.ts";
import { redactText } from "./redact.ts";
import type { SecretSpan } from "./values.ts";

// Fake secrets assembled from parts so the repository holds no literal a secret scanner would flag.
const AWS_ID = ["AK", "IA", "Q7ZX3M5N2B4V6C8X"].join("");
const AWS_SECRET = "Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A/+x";
const AWS_PAIR = `[default]\naws_access_key_id=${AWS_ID}\naws_secret_access_key=${AWS_SECRET}\n`;
const base64 = (text: string): string => Buffer.from(text).toString("base64");

function spans(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  findEncodedSecrets(text, out);
  return out;
}

describe("secrets inside base64", () => {
  it("redacts a whole blob whose decoded text holds an AWS key pair (break 5)", () => {
    const blob = base64(AWS_PAIR);
    const text = `data:\n  credentials: ${blob}\n`;
    expect(redactText(text).text).toBe(`data:\n  credentials: [REDACTED:${ENCODED_SECRET_KIND}]\n`);
  });

  it("joins `base64` output wrapped at 76 columns, also JSON-escaped, and leaves the text after it", () => {
    const blob = base64(AWS_PAIR);
    const wrapped = (blob.match(/.{1,76}/g) ?? []).join("\n");
    expect(wrapped.split("\n").length).toBeGreaterThan(1);
    expect(redactText(`$ echo … | base64\n${wrapped}\n$ next`).text).toBe(
      `$ echo … | base64\n[REDACTED:${ENCODED_SECRET_KIND}]\n$ next`,
    );
    const escaped = JSON.stringify({ output: `${wrapped}\ndone` });
    expect(redactText(escaped).text).toBe(`{"output":"[REDACTED:${ENCODED_SECRET_KIND}]\\ndone"}`);
  });

  it("leaves base64 of ordinary text, binary data and unpadded runs alone", () => {
    expect(spans(base64("log_level = info\nregion = eu-west-1\nretries = 3\n"))).toEqual([]);
    expect(spans(Buffer.from(Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256)).toString("base64"))).toEqual(
      [],
    );
    expect(spans(base64(AWS_PAIR).replace(/=+$/, "").slice(0, -1))).toEqual([]); // not a multiple of 4
  });

  it("skips blobs past the size cap, so cost stays bounded", () => {
    const huge = base64(`${"x = 1\n".repeat(12_000)}${AWS_PAIR}`);
    expect(huge.length).toBeGreaterThan(65_536);
    expect(spans(huge)).toEqual([]);
  });

  it("is idempotent: the marker is not base64 and its surroundings stay the same", () => {
    const once = redactText(`a ${base64(AWS_PAIR)} b`).text;
    expect(redactText(once)).toEqual({ text: once, findings: [] });
  });
});
