// Edits one config file (`~/.ctx/config.json` or the project's `.ctx/config.json`) for `ctx config set|unset`:
// read it, change one setting, check the whole file against the schema, and only then replace it atomically
// (0600, in a 0700 folder). A file that is not a regular file (a symlink, say) is refused, not followed.
import { lstat } from "node:fs/promises";
import { dirname } from "node:path";
import { readConfigFile } from "../../config/load.ts";
import { checkConfigFile, valueAt, withoutSetting, withSetting } from "../../config/settings.ts";
import { isRecord } from "../../core/json/record.ts";
import { CtxError } from "../../errors.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { ensureProjectCtxDir } from "../files/project-dir.ts";

export interface ConfigFileTarget {
  path: string;
  /** The project root when the file is a project's `.ctx/config.json`. */
  projectRoot?: string;
}

export interface ConfigEdit {
  path: string;
  key: string;
  /** The value in this file before and after (undefined = not set here). */
  before: unknown;
  after: unknown;
  changed: boolean;
}

async function readForEdit(path: string): Promise<Record<string, unknown>> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (info === null) return {};
  if (!info.isFile()) {
    throw new CtxError("CONFIG_INVALID", `${path} is not a regular file`, {
      hint: "ctx edits only a plain config.json; replace the link or folder with a file",
    });
  }
  return readConfigFile(path)?.value ?? {};
}

async function write(target: ConfigFileTarget, content: Record<string, unknown>): Promise<void> {
  if (target.projectRoot !== undefined) await ensureProjectCtxDir(target.projectRoot);
  else await ensurePrivateDir(dirname(target.path));
  await writeFileAtomic(target.path, `${JSON.stringify(content, null, 2)}\n`);
}

/** Sets `key` (already parsed and checked on its own) in the file; the whole file is checked before writing. */
export async function setConfigValue(target: ConfigFileTarget, key: string, value: unknown): Promise<ConfigEdit> {
  const path = key.split(".");
  const current = await readForEdit(target.path);
  const before = valueAt(current, path);
  const next = withSetting(current, path, value);
  checkConfigFile(next, target.path);
  const changed = JSON.stringify(before) !== JSON.stringify(value);
  if (changed) await write(target, next);
  return { path: target.path, key, before, after: value, changed };
}

/** Removes `key` from the file; a key that is not set there changes nothing. */
export async function unsetConfigValue(target: ConfigFileTarget, key: string): Promise<ConfigEdit> {
  const path = key.split(".");
  const current = await readForEdit(target.path);
  const before = valueAt(current, path);
  if (before === undefined) return { path: target.path, key, before, after: undefined, changed: false };
  const next = withoutSetting(current, path);
  checkConfigFile(next, target.path);
  await write(target, next);
  return { path: target.path, key, before, after: undefined, changed: true };
}

/**
 * Records (or, with `sha256` null, forgets) the user's trust in one project config file: its absolute path and the
 * SHA-256 of the bytes trusted, under `trust.projectConfigs` of the user's own file (`ctx config trust|untrust`).
 */
export async function setProjectConfigTrust(
  userConfigPath: string,
  projectConfigPath: string,
  sha256: string | null,
): Promise<{ path: string; changed: boolean }> {
  const current = await readForEdit(userConfigPath);
  const trusted = valueAt(current, ["trust", "projectConfigs"]);
  const map: Record<string, unknown> = isRecord(trusted) ? { ...trusted } : {};
  if ((map[projectConfigPath] ?? null) === sha256) return { path: userConfigPath, changed: false };
  if (sha256 === null) delete map[projectConfigPath];
  else map[projectConfigPath] = sha256;
  const next =
    Object.keys(map).length === 0
      ? withoutSetting(current, ["trust", "projectConfigs"])
      : withSetting(current, ["trust", "projectConfigs"], map);
  checkConfigFile(next, userConfigPath);
  await write({ path: userConfigPath }, next);
  return { path: userConfigPath, changed: true };
}
