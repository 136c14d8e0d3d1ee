import { describe, expect, it } from "vitest";
import { isRedactionMarker, redactionMarker, redactText, redactValue, SECRET_FIELD_KIND } from "./redact.ts";

// Fake secrets assembled from parts so the repository holds no literal a secret scanner would flag.
const GITHUB = ["gh", "p_", "Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A"].join("");
const AWS_ID = ["AK", "IA", "Q7ZX3M5N2B4V6C8X"].join("");
const STRIPE = ["sk", "_live_", "4eC39HqLyjWDarjtT1zdp7dcXk2Bf"].join("");
const PEM = [
  `${"-".repeat(5)}BEGIN RSA PRIVATE KEY${"-".repeat(5)}`,
  "MIIEowIBAAKCAQEA7Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A0Zq8Xw7Vu6Ts5R",
  "q4Po3Nm2Lk1Jh0Gf9Ed8Cb7AMIIEowIBAAKCAQEA7Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0",
  `${"-".repeat(5)}END RSA PRIVATE KEY${"-".repeat(5)}`,
].join("\n");

describe("redactText", () => {
  it("replaces a secret with its typed marker and reports original offsets", () => {
    const text = `token ${GITHUB} and id ${AWS_ID}.`;
    const result = redactText(text);
    expect(result.text).toBe("token [REDACTED:github-token] and id [REDACTED:aws-access-key-id].");
    expect(result.findings.map((f) => [f.kind, text.slice(f.start, f.end)])).toEqual([
      ["github-token", GITHUB],
      ["aws-access-key-id", AWS_ID],
    ]);
  });

  it("returns the same string and no findings when there is nothing to redact", () => {
    const text = "const tokenCount = 5; // keyof T";
    expect(redactText(text)).toEqual({ text, findings: [] });
  });

  it("names a secret by its most specific rule when rules overlap", () => {
    expect(redactText(`export GH_TOKEN=${GITHUB}`).text).toBe("export GH_TOKEN=[REDACTED:github-token]");
    expect(redactText(`"private_key": "${PEM.replaceAll("\n", "\\n")}\\n"`).text).toBe(
      '"private_key": "[REDACTED:private-key]\\n"',
    );
  });

  it("merges overlapping spans so that no piece of the secret survives between them", () => {
    const result = redactText(`password = "prefix-${GITHUB}-suffix"`);
    expect(result.text).toBe('password = "[REDACTED:github-token]"');
    expect(result.findings).toHaveLength(1);
  });

  it("keeps scheme, user and host of a URL and redacts only its password", () => {
    expect(redactText("git clone https://bot:Hunter2Pass@git.example.net/a.git").text).toBe(
      "git clone https://bot:[REDACTED:password]@git.example.net/a.git",
    );
  });

  it("redacts a key block whole, including a block cut short with no END line", () => {
    expect(redactText(`key:\n${PEM}\nbye`).text).toBe("key:\n[REDACTED:private-key]\nbye");
    const truncated = PEM.split("\n").slice(0, 3).join("\n");
    expect(redactText(`${truncated}\n\nnext paragraph`).text).toBe("[REDACTED:private-key]\n\nnext paragraph");
  });

  it("is idempotent and deterministic", () => {
    const text = `AWS_SECRET_ACCESS_KEY=Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A/+x ${STRIPE} ${PEM} postgres://u:p4ss@h/db`;
    const once = redactText(text);
    expect(once.findings.length).toBe(4);
    expect(redactText(once.text)).toEqual({ text: once.text, findings: [] });
    expect(redactText(text)).toEqual(once);
  });

  it("leaves allowlisted strings alone", () => {
    const text = `${STRIPE} ${GITHUB}`;
    expect(redactText(text, { allowlist: [STRIPE] }).text).toBe(`${STRIPE} [REDACTED:github-token]`);
    expect(redactText("DB_PASSWORD=hunter22", { allowlist: ["hunter22"] }).findings).toEqual([]);
  });

  it("treats documentation placeholders and code expressions as values, not secrets", () => {
    for (const text of [
      "export GITHUB_TOKEN=$(gh auth token)",
      'apiKey: "YOUR_API_KEY"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell placeholder is the point of the test
      "password: ${DB_PASSWORD}",
      "api_key: anthropic_api_key()",
      "token: string;",
      "password: str",
      "secret = config.session.secret",
      `STRIPE_KEY=${["sk", "_test_", "x".repeat(20)].join("")}`,
      "postgres://user:password@localhost/db",
    ]) {
      expect(redactText(text).findings, text).toEqual([]);
    }
  });

  // Guards against catastrophic backtracking: each would take minutes if a pattern were super-linear.
  /** SEQUENCE, INTEGER 0, SEQUENCE (3,840 bytes: past the line) { OID }: the start of a PKCS#8 key with long parameters. */
  const KEY_HEADER_LINE = Buffer.concat([
    Buffer.from([0x30, 0x82, 0x10, 0x00, 0x02, 0x01, 0x00, 0x30, 0x82, 0x0f, 0x00, 0x06, 0x03, 0x2b, 0x65, 0x70]),
    Buffer.alloc(32, 7),
  ]).toString("base64");

  it("finishes 1 MB adversarial lines", { timeout: 20_000 }, () => {
    const MB = 1_000_000;
    const repeat = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
    for (const text of [
      repeat("a"),
      repeat("eyJ-"),
      repeat("eyJabcdefghijk."),
      repeat(`${"-".repeat(5)}BEGIN PRIVATE KEY${"-".repeat(5)}`),
      repeat("token="),
      repeat("password: "),
      repeat("://a:"),
      repeat("Bearer "),
      repeat('\\"'),
      `token = "${repeat("a")}`,
      `secret is ${repeat("aB3+")}`,
      repeat("api key "),
      repeat("curl -u a"),
      repeat("docker login "),
      `password: ${repeat("\\")}n`,
      repeat("private_key_id: "),
      repeat(`${KEY_HEADER_LINE}\n\n`), // a PKCS#8 header asking for 4 KB more to check, 15,000 times
      repeat(`${KEY_HEADER_LINE}\n`),
      repeat(`b3BlbnNzaC1rZXktdjEA${"A".repeat(108)}\n`),
    ]) {
      const result = redactText(text);
      expect(redactText(result.text).text).toBe(result.text);
    }
  });
});

describe("markers", () => {
  it("recognises only whole markers", () => {
    expect(isRedactionMarker(redactionMarker("github-token"))).toBe(true);
    expect(isRedactionMarker("x [REDACTED:github-token]")).toBe(false);
    expect(isRedactionMarker("[REDACTED:]")).toBe(false);
  });
});

describe("redactValue", () => {
  it("redacts strings deep inside objects and arrays and keeps keys and other values", () => {
    const input = { note: `use ${GITHUB}`, nested: [{ n: 1, ok: true, none: null, deep: [`id ${AWS_ID}`] }] };
    const { value, count } = redactValue(input);
    expect(value).toEqual({
      note: "use [REDACTED:github-token]",
      nested: [{ n: 1, ok: true, none: null, deep: ["id [REDACTED:aws-access-key-id]"] }],
    });
    expect(count).toBe(2);
  });

  it("redacts whole string values under secret-named keys", () => {
    const input = {
      password: "hunter2",
      apiKey: "abc",
      user_token: "t",
      authorization: "Bearer x",
      key: "Enter",
      count: 3,
    };
    const { value, count } = redactValue(input);
    const marker = redactionMarker(SECRET_FIELD_KIND);
    expect(value).toEqual({
      password: marker,
      apiKey: marker,
      user_token: marker,
      authorization: marker,
      key: "Enter",
      count: 3,
    });
    expect(count).toBe(4);
  });

  it("leaves empty values, markers, numbers and allowlisted values under secret keys", () => {
    const input = { password: "", token: "[REDACTED:secret-field]", secret: 42, apiKey: "public-demo" };
    expect(redactValue(input, { allowlist: ["public-demo"] })).toEqual({ value: input, count: 0 });
  });

  it("never mutates the input and shares untouched subtrees", () => {
    const clean = { text: "nothing here", list: [1, 2] };
    const input = { clean, dirty: { password: "hunter2" } };
    const frozen = structuredClone(input);
    const { value } = redactValue(input);
    expect(input).toEqual(frozen);
    expect(value.clean).toBe(clean);
    expect(value.dirty).not.toBe(input.dirty);
    expect(redactValue(value)).toEqual({ value, count: 0 });
  });

  it("keeps a __proto__ key as data", () => {
    const input = JSON.parse('{"__proto__": {"password": "hunter2"}}') as Record<string, unknown>;
    const { value } = redactValue(input);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ password: "[REDACTED:secret-field]" });
  });

  it("redacts a bare string", () => {
    expect(redactValue(`x ${STRIPE}`)).toEqual({ value: "x [REDACTED:stripe-key]", count: 1 });
  });
});

describe("redactValue's secret-named keys", () => {
  it("replaces every value under a secret-named key, however many distinct keys it has seen", () => {
    const value: Record<string, string> = {};
    for (let i = 0; i < 6_000; i++) value[i % 3 === 0 ? `service${i}Password` : `field${i}`] = `value ${i}`;
    for (let pass = 0; pass < 2; pass++) {
      const { value: redacted, count } = redactValue(value);
      expect(count).toBe(2_000);
      expect(redacted.service0Password).toBe(redactionMarker(SECRET_FIELD_KIND));
      expect(redacted.service5997Password).toBe(redactionMarker(SECRET_FIELD_KIND));
      expect(redacted.field1).toBe("value 1");
    }
  });
});
