import { describe, expect, it } from "vitest";
import {
  buildSecretSamples,
  checkSecretSample,
  loadCleanFiles,
  loadRealTranscripts,
} from "../../../tests/fixtures/redaction/corpus.ts";
import { buildSecretCases } from "../../../tests/fixtures/redaction/fake-secrets.ts";
import { measureHeldOut } from "../../../tests/fixtures/redaction/held-out.ts";
import { redactText, redactValue } from "./redact.ts";

const samples = buildSecretSamples();
const cleanFiles = loadCleanFiles();
const transcripts = loadRealTranscripts();

describe("the fake-secrets corpus", () => {
  it("covers every kind the issue names, in every context", () => {
    const kinds = new Set(samples.flatMap((sample) => sample.secrets.map((secret) => secret.kind)));
    for (const kind of [
      "aws-access-key-id",
      "aws-secret-access-key",
      "gcp-api-key",
      "azure-storage-key",
      "github-token",
      "gitlab-token",
      "slack-token",
      "slack-webhook",
      "stripe-key",
      "anthropic-api-key",
      "openai-api-key",
      "huggingface-token",
      "npm-token",
      "private-key",
      "jwt",
      "password",
      "secret",
      "high-entropy",
      // issue #11 break 5 and the gitleaks / detect-secrets kinds
      "base64-secret",
      "discord-webhook",
      "discord-bot-token",
      "telegram-bot-token",
      "twilio-api-key",
      "mailgun-api-key",
      "mailchimp-api-key",
      "shopify-token",
      "square-token",
      "heroku-api-key",
      "doppler-token",
      "vault-token",
      "databricks-token",
      "linear-api-key",
      "atlassian-api-token",
      "age-secret-key",
      "basic-auth",
      "bearer-token",
      "password-hash",
    ]) {
      expect(kinds).toContain(kind);
    }
    expect(new Set(samples.map((sample) => sample.context)).size).toBe(7);
  });

  it("builds the same secrets on every run, so failures reproduce", () => {
    expect(buildSecretCases()).toEqual(buildSecretCases());
  });

  it.each(samples.map((sample) => [`${sample.id} in ${sample.context}`, sample] as const))(
    "%s is caught with its kind and no fragment left",
    (_, sample) => {
      const redacted = redactText(sample.text);
      expect(checkSecretSample(sample, redacted)).toEqual([]);
      expect(redactText(redacted.text).text).toBe(redacted.text);
    },
  );

  it("the held-out set (shapes written apart from the rules) leaks nothing", () => {
    expect(measureHeldOut(redactText).missed).toEqual([]);
    expect(measureHeldOut((text) => ({ text })).caught).toBe(0); // the measure itself can fail
  });

  it("the checker itself fails on text that was not redacted", () => {
    const sample = samples[0];
    if (sample === undefined) throw new Error("empty corpus");
    expect(checkSecretSample(sample, { text: sample.text, findings: [] })).not.toEqual([]);
  });
});

describe("ordinary text", () => {
  it.each(cleanFiles.map((file) => [file.name, file.text] as const))("clean/%s comes through untouched", (_, text) => {
    const redacted = redactText(text);
    expect(redacted.findings).toEqual([]);
    expect(redacted.text).toBe(text);
  });

  it("the clean corpus holds the tricky cases it claims to", () => {
    const all = cleanFiles.map((file) => file.text).join("\n");
    for (const needle of [
      "data:image/png;base64,",
      "integrity: sha512-",
      "keyof T",
      "const tokenCount = 5",
      "passwordField",
      "password is required",
      "| base64",
      "$2$1",
    ]) {
      expect(all).toContain(needle);
    }
  });

  // The real fixtures were sanitised by their publishers and hold no secret (checked by hand: their token-like
  // strings are tool-use/message/request ids, hashes and `[REDACTED_SIGNATURE]` placeholders).
  it.each(transcripts.map((file) => [file.name, file.text] as const))(
    "real transcript %s has no findings",
    (_, text) => {
      expect(redactText(text).findings).toEqual([]);
    },
  );

  it("redactValue on every parsed line of the short spotter transcript changes nothing", () => {
    const short = transcripts.find((file) =>
      file.name.endsWith("claude/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl"),
    );
    if (short === undefined) throw new Error("short.jsonl missing");
    const lines = short.text.split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBe(15);
    for (const line of lines) {
      const entry: unknown = JSON.parse(line);
      const result = redactValue(entry);
      expect(result.count).toBe(0);
      expect(result.value).toBe(entry);
    }
  });

  it("a secret planted in a real transcript line is caught there", () => {
    const short = transcripts.find((file) =>
      file.name.endsWith("claude/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl"),
    );
    const line = short?.text.split("\n")[3] ?? "";
    const token = ["gh", "p_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");
    const entry = JSON.parse(line) as Record<string, unknown>;
    const planted = JSON.stringify({ ...entry, note: `export GITHUB_TOKEN=${token}` });
    const redacted = redactText(planted);
    expect(redacted.findings.map((finding) => finding.kind)).toEqual(["github-token"]);
    expect(redacted.text).not.toContain(token.slice(4));
  });
});
