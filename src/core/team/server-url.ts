// The team server's URL as ctx shows it: checked to be a postgres:// URL, and never with a credential. Every
// message that names the server or quotes the driver goes through here (status, join, errors, `--json`, the stored
// `last error`), so a password that came in the URL, PGPASSWORD or ~/.pgpass is never printed or logged.
import { CtxError } from "../../errors.ts";

const HIDDEN = "***";

/**
 * The URL parameters that carry a credential. libpq takes `password` and `sslpassword` (the client key's passphrase);
 * pg-connection-string copies every parameter into the driver's settings, so a name holding "password" or "secret"
 * (any spelling a driver may take) is treated as one too. `sslkey`, `sslcert` and `passfile` name files: their paths
 * are shown, their contents are never read or printed by ctx.
 */
export function isCredentialParameter(name: string): boolean {
  return /pass(word)?$|secret|token/i.test(name);
}

/** The URL checked: postgres:// or postgresql://, with a host. Throws a USAGE error that does not quote it. */
export function parseTeamUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new CtxError("USAGE", "the team server is not a URL", {
      hint: "give it as postgresql://<role>@<host>:<port>/<database>?sslmode=verify-full",
    });
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new CtxError("USAGE", `the team server URL must start with postgresql:// (not ${url.protocol}//)`, {
      hint: "give it as postgresql://<role>@<host>:<port>/<database>?sslmode=verify-full",
    });
  }
  if (url.hostname === "" && !url.searchParams.has("host")) {
    throw new CtxError("USAGE", "the team server URL names no host", {
      hint: "give it as postgresql://<role>@<host>:<port>/<database>?sslmode=verify-full",
    });
  }
  return url;
}

/** The URL with its password (the user part) and every credential parameter (`password=`, `sslpassword=`, …) as ***. */
export function describeTeamUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return "(not a URL)";
  }
  if (url.password !== "") url.password = HIDDEN;
  for (const name of new Set(url.searchParams.keys())) {
    if (isCredentialParameter(name)) url.searchParams.set(name, HIDDEN);
  }
  return url.toString().replaceAll(encodeURIComponent(HIDDEN), HIDDEN);
}

/** The credentials the URL carries, if any (decoded and as written), so messages can be cleaned of them. */
export function passwordsInUrl(text: string): string[] {
  try {
    const url = new URL(text.trim());
    const found = [decodeURIComponent(url.password), url.password];
    for (const [name, value] of url.searchParams) if (isCredentialParameter(name)) found.push(value);
    return found.filter((p) => p !== "");
  } catch {
    return [];
  }
}

/** `text` with every secret (as given and URL-encoded) replaced by ***: for messages quoted from the driver. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  let clean = text;
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  // Longest first, so a secret that contains another is hidden whole.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) clean = clean.split(form).join(HIDDEN);
  return clean;
}
