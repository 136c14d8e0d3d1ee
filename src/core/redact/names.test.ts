import { describe, expect, it } from "vitest";
import { classifySecretName, splitNameWords } from "./names.ts";

describe("secret names", () => {
  it("splits names in every case style", () => {
    expect(splitNameWords("AWS_SECRET_ACCESS_KEY")).toEqual(["aws", "secret", "access", "key"]);
    expect(splitNameWords("clientSecret")).toEqual(["client", "secret"]);
    expect(splitNameWords("x-api-key")).toEqual(["x", "api", "key"]);
    expect(splitNameWords("APIKey")).toEqual(["api", "key"]);
    expect(splitNameWords("spring.datasource.password")).toEqual(["spring", "datasource", "password"]);
  });

  it.each([
    ["password", "password"],
    ["DB_PASSWORD", "password"],
    ["PGPASSWORD", "password"],
    ["passwd", "password"],
    ["Pwd", "password"],
    ["db_pass", "password"],
    ["GITHUB_TOKEN", "secret"],
    ["accessToken", "secret"],
    ["csrftoken", "secret"],
    ["apiKey", "secret"],
    ["x-api-key", "secret"],
    ["AWS_SECRET_ACCESS_KEY", "secret"],
    ["STRIPE_KEY", "secret"],
    ["client_secret", "secret"],
    ["smtp_credentials", "secret"],
    ["authorization", "secret"],
    ["basic_auth", "secret"],
    ["SECRET_KEY_BASE", "secret"],
    ["secretKeyBase", "secret"],
    ["private_key_id", "secret"],
    ["privateKeyId", "secret"],
  ])("%s holds a secret (%s)", (name, family) => {
    expect(classifySecretName(name)).toBe(family);
  });

  it.each([
    "tokenCount",
    "key_id",
    "api_key_id",
    "public_key_id",
    "access_key_id",
    "max_tokens",
    "input_tokens",
    "passwordField",
    "PASSWORD_MIN_LENGTH",
    "apiKeySource",
    "key",
    "sortKey",
    "CACHE_KEY",
    "primary_key",
    "public_key",
    "next_token",
    "page_token",
    "eos_token",
    "monkey",
    "bypass",
    "pass",
    "auth",
    "PWD",
    "OLDPWD",
    "tokenizer",
    "secret_key_base_path",
    "keybase",
    "KEY_BASE",
    "token_base",
  ])("%s is an ordinary name", (name) => {
    expect(classifySecretName(name)).toBeNull();
  });

  it("uses the word before a bare `key` in prose", () => {
    expect(classifySecretName("key", "api")).toBe("secret");
    expect(classifySecretName("key", "the")).toBeNull();
    expect(classifySecretName("token", "next")).toBeNull();
  });
});
