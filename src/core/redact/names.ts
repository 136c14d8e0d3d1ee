// Which names hold secrets: variables, keys and flags like *_TOKEN, apiKey, PASSWORD, client_secret, and not
// tokenCount, sortKey or next_token. Used by the assignment scan and by `redactValue` for object keys.

export type SecretNameFamily = "password" | "secret";

const PASSWORD_WORDS = new Set(["password", "passwd", "pwd", "pass", "passphrase"]);
/** Words before `key` that make it a credential (`api_key`, `AccessKey`, `signing-key`). */
const KEY_QUALIFIERS = new Set(
  (
    "api access secret private master auth encryption encrypt signing sign client account app application license " +
    "subscription consumer shared storage service webhook hmac jwt ssh gpg pgp deploy admin session"
  ).split(" "),
);
/** Words before `key` / `token` that name something public or structural (`SORT_KEY`, `next_token`, `eos_token`). */
const NOT_SECRET_QUALIFIERS = new Set(
  (
    "sort cache primary foreign partition hash map row public idempotency lookup object group index sequence " +
    "composite unique natural surrogate dedup dedupe shortcut hot keyboard id name next page continuation pagination " +
    "max min cancellation cancel eos bos pad unk sep cls mask start end stop eot special lexer parser parse current " +
    "last first prev previous"
  ).split(" "),
);
/** One-word names such as `PGPASSWORD`, `csrftoken`, `apikey`. */
const COMPACT_SUFFIXES: readonly [string, SecretNameFamily][] = [
  ["password", "password"],
  ["passwd", "password"],
  ["secret", "secret"],
  ["token", "secret"],
  ["apikey", "secret"],
  ["accesskey", "secret"],
  ["secretkey", "secret"],
  ["privatekey", "secret"],
];

/** Splits `AWS_SECRET_ACCESS_KEY`, `clientSecret`, `x-api-key`, `spring.datasource.password` into lower-case words. */
export function splitNameWords(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((word) => word.toLowerCase());
}

/** Whether a variable, key or flag name holds a secret, and of which family; null for ordinary names. */
export function classifySecretName(name: string, wordBefore?: string): SecretNameFamily | null {
  const words = splitNameWords(name);
  // Rails' `SECRET_KEY_BASE` (and `secretKeyBase`): a key or secret with `base` after it is still the key.
  if (words.length > 2 && words.at(-1) === "base" && (words.at(-2) === "key" || words.at(-2) === "secret")) words.pop();
  // A GCP service-account file's `private_key_id` sits next to the key and names it: redacted with it.
  if (words.length >= 3 && words.at(-1) === "id" && words.at(-2) === "key" && words.at(-3) === "private")
    return "secret";
  const last = words.at(-1);
  if (last === undefined) return null;
  const previous = words.length > 1 ? words.at(-2) : wordBefore?.toLowerCase();
  if (PASSWORD_WORDS.has(last)) {
    // `pass` alone is a test status (`pass: "passed"`); `PWD` is the shell's working directory.
    if ((last === "pass" && words.length === 1) || name === "PWD" || name === "OLDPWD") return null;
    return "password";
  }
  if (last === "secret" || last === "credential" || last === "credentials" || last === "authorization") return "secret";
  if (last === "auth") return words.length > 1 ? "secret" : null;
  if (last === "token") return previous !== undefined && NOT_SECRET_QUALIFIERS.has(previous) ? null : "secret";
  if (last === "key") {
    if (previous === undefined || NOT_SECRET_QUALIFIERS.has(previous)) return null;
    if (KEY_QUALIFIERS.has(previous)) return "secret";
    // Env-style names (`STRIPE_KEY`, `OPENAI_KEY`) are credentials unless the word before says otherwise.
    return words.length > 1 && /^[A-Z0-9_]+$/.test(name) ? "secret" : null;
  }
  if (words.length === 1) {
    for (const [suffix, family] of COMPACT_SUFFIXES) if (last.endsWith(suffix) && last !== suffix) return family;
  }
  return null;
}
