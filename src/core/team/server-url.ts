// The team server's URL as ctx shows it: checked to be a postgres:// URL, and never with its password. Every
// message that names the server or quotes the driver goes through here (status, join, errors), so a password that
// came in the URL, PGPASSWORD or ~/.pgpass is never printed or logged.
import { CtxError } from "../../errors.ts";

const HIDDEN = "***";

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

/** The URL with its password (in the user part or a `password=` parameter) replaced by ***. */
export function describeTeamUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return "(not a URL)";
  }
  if (url.password !== "") url.password = HIDDEN;
  if (url.searchParams.has("password")) url.searchParams.set("password", HIDDEN);
  return url.toString().replace(encodeURIComponent(HIDDEN), HIDDEN);
}

/** The password the URL carries, if any (decoded), so messages can be cleaned of it. */
export function passwordsInUrl(text: string): string[] {
  try {
    const url = new URL(text.trim());
    const found = [decodeURIComponent(url.password), url.password, url.searchParams.get("password") ?? ""];
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
