// Config trust without zod (hook processes read config on every call): the settings a repository's own
// .ctx/config.json may not set, and the project layer with them taken out unless the user trusted that exact file
// (`ctx config trust` records its path and SHA-256 in the user's own config, like direnv's `allow`). The marks live
// in ./schema.ts beside each key; a test keeps SENSITIVE_SETTINGS equal to them.
import { isRecord } from "../core/json/record.ts";

/** `safe` tunes what ctx computes for this project; `sensitive` and `secret` come only from the user. */
export type KeyTrust = "safe" | "sensitive" | "secret";

/** Every setting that is not safe, by dotted key (./trust.test.ts checks this against the schema's marks). */
export const SENSITIVE_SETTINGS: Readonly<Record<string, Exclude<KeyTrust, "safe">>> = {
  "memory.directory": "sensitive",
  "breadcrumb.enabled": "sensitive",
  "breadcrumb.vault": "sensitive",
  "embedder.provider": "sensitive",
  "embedder.model": "sensitive",
  "embedder.ollamaUrl": "sensitive",
  "embedder.modelDir": "sensitive",
  "embedder.allowDownload": "sensitive",
  "summaries.provider": "sensitive",
  "summaries.model": "sensitive",
  "summaries.dailyTokenCap": "sensitive",
  "archive.enabled": "sensitive",
  "archive.daysBeforeCleanup": "sensitive",
  "archive.maxMegabytes": "sensitive",
  "archive.maxAgeDays": "sensitive",
  "archive.maxTranscriptMegabytes": "sensitive",
  "redaction.allowlist": "sensitive",
  "bridge.host": "sensitive",
  "bridge.port": "sensitive",
  "bridge.synology.token": "secret",
  "bridge.synology.incomingUrl": "secret",
  "bridge.synology.mode": "sensitive",
  "bridge.claude.command": "sensitive",
  "bridge.claude.args": "sensitive",
  "bridge.claude.workdir": "sensitive",
  "search.scope": "sensitive",
  "team.url": "secret",
  "team.name": "sensitive",
  "trust.projectConfigs": "sensitive",
};

/** A project layer's sensitive settings that were left out because the user has not trusted the file. */
export interface IgnoredSettings {
  file: string;
  keys: string[];
  /** The SHA-256 of the file's bytes, what `ctx config trust` records. */
  sha256: string;
}

/** Whether a dotted key holds a credential (`ctx config` hides its value). */
export function isSecretSetting(key: string): boolean {
  return SENSITIVE_SETTINGS[key] === "secret";
}

/** The sensitive keys a layer's value sets (a section set to something other than an object counts as its keys). */
export function sensitiveKeysIn(value: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const key of Object.keys(SENSITIVE_SETTINGS)) {
    let cursor: unknown = value;
    for (const part of key.split(".")) {
      if (!isRecord(cursor) || !Object.hasOwn(cursor, part)) {
        cursor = undefined;
        break;
      }
      cursor = cursor[part];
    }
    if (cursor !== undefined) found.push(key);
  }
  return found;
}

/** A copy of `value` without the given dotted keys; sections left empty stay as `{}` (their defaults apply). */
export function withoutKeys(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const copy = structuredClone(value);
  for (const key of keys) {
    const parts = key.split(".");
    let cursor: unknown = copy;
    for (const part of parts.slice(0, -1)) cursor = isRecord(cursor) ? cursor[part] : undefined;
    if (isRecord(cursor)) delete cursor[parts[parts.length - 1] as string];
  }
  return copy;
}

/** Whether the user's own config trusts the project file at `path` holding exactly the bytes hashed to `sha256`. */
export function isTrustedProjectConfig(userConfig: Record<string, unknown> | undefined, path: string, sha256: string) {
  const trust = userConfig?.trust;
  if (!isRecord(trust) || !isRecord(trust.projectConfigs)) return false;
  return trust.projectConfigs[path] === sha256;
}
