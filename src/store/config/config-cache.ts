// The config cache (config/load.ts `ConfigCache`): `<CTX_HOME>/cache/config.json` keeps the last few validated
// configs by the exact layers they came from, so a hook process with a config file or a CTX_* variable skips
// building the schema (~150 zod objects) and running it. A cache only: unreadable, damaged or unwritable, it is
// ignored and the config is validated as usual. Written atomically (0600 in a 0700 folder), never through a link.
import { closeSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ConfigCache, knownConfig, type LoadConfigOptions, readConfigLayers } from "../../config/layers.ts";
import { ctxHome } from "../../config/paths.ts";
import type { Config } from "../../config/schema.ts";
import { isCtxPathSafe, openRegularFileSync, replaceFileSync } from "../files/safe-path.ts";

/** Distinct layer sets remembered (global only, a few projects, the MCP server's environment, …). */
export const CONFIG_CACHE_ENTRIES = 8;

interface Entry {
  key: string;
  config: Config;
}

/**
 * The config of a process Claude Code starts often (a hook, the status line): the defaults, or the config cached for
 * these exact layers, without the schema; only layers never validated load config/load.ts and zod, and are kept.
 */
export async function loadCachedConfig(options: LoadConfigOptions): Promise<Config> {
  const cache = fileConfigCache(options.env);
  const layers = readConfigLayers(options);
  return knownConfig(layers, cache) ?? (await import("../../config/load.ts")).validateLayers(layers, cache);
}

export function configCachePath(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "cache", "config.json");
}

export function fileConfigCache(env: NodeJS.ProcessEnv): ConfigCache {
  const path = configCachePath(env);
  let entries: Entry[] | undefined;
  const load = (): Entry[] => {
    entries ??= readEntries(path);
    return entries;
  };
  return {
    get: (key) => load().find((entry) => entry.key === key)?.config,
    set: (key, config) => {
      entries = [{ key, config }, ...load().filter((entry) => entry.key !== key)].slice(0, CONFIG_CACHE_ENTRIES);
      writeEntries(path, entries);
    },
  };
}

function readEntries(path: string): Entry[] {
  try {
    const fd = openRegularFileSync(path);
    if (fd === null) return [];
    let text: string;
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (entry): entry is Entry =>
        typeof entry === "object" &&
        entry !== null &&
        typeof entry.key === "string" &&
        typeof entry.config === "object" &&
        entry.config !== null,
    );
  } catch {
    return []; // damaged, a link, not a regular file: validate as if there were no cache
  }
}

function writeEntries(path: string, entries: Entry[]): void {
  const folder = join(path, "..");
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (!isCtxPathSafe(folder)) return;
    replaceFileSync(path, JSON.stringify(entries));
  } catch {
    // a read-only or full CTX_HOME: the next process validates again
  }
}
