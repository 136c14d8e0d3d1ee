// The environment of every child the bridge starts (Claude's turns, the rolling summary's `claude -p`): the
// operator's, minus the bridge's own settings and secrets (issue #22, "secrets stay with the bridge"). Claude, its
// tools, hooks and MCP servers inherit what it gets, so a `printenv` in a turn must not post the token or the
// incoming URL into the chat. Pure: the caller passes the environment in.

/** The bridge's own configuration variables, whatever they hold. */
const BRIDGE_PREFIX = "CTX_BRIDGE__";
/** A secret at least this long is also looked for inside values (a short one would match innocent ones). */
const MIN_CONTAINED_CHARS = 8;

export interface BridgeSecrets {
  token: string;
  incomingUrl: string;
}

/** The secrets to keep from children: the outgoing token, the incoming URL, and the token inside that URL. */
export function bridgeSecretValues(secrets: BridgeSecrets): string[] {
  const values = [secrets.token, secrets.incomingUrl];
  try {
    const inner = new URL(secrets.incomingUrl).searchParams.get("token");
    if (inner !== null) values.push(inner);
  } catch {
    // not a URL: the settings refuse it before any child starts
  }
  return [...new Set(values.map((value) => value.trim()).filter((value) => value !== ""))];
}

/**
 * `env` without every `CTX_BRIDGE__*` variable and every variable whose value is a bridge secret (or, for a secret
 * of 8 characters or more, holds one).
 */
export function bridgeChildEnv(env: NodeJS.ProcessEnv, secrets: BridgeSecrets): NodeJS.ProcessEnv {
  const values = bridgeSecretValues(secrets);
  const child: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (name.toUpperCase().startsWith(BRIDGE_PREFIX)) continue;
    if (values.some((secret) => holdsSecret(value, secret))) continue;
    child[name] = value;
  }
  return child;
}

function holdsSecret(value: string, secret: string): boolean {
  const trimmed = value.trim();
  if (trimmed === secret) return true;
  return secret.length >= MIN_CONTAINED_CHARS && value.includes(secret);
}
