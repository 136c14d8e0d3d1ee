// The config's layers, read without validating them: the global `<CTX_HOME>/config.json`, the project's
// `.ctx/config.json`, the `CTX_*` variables; and the config for layers already validated once (the cache). No zod
// here: a hook process whose config needs no validation (no layer, or cached) never loads the schema (./load.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CtxError } from "../errors.ts";
import { CTX_VERSION } from "../version.ts";
import { defaultConfig } from "./defaults.ts";
import { type ConfigLayer, configLeaves } from "./merge.ts";
import { ctxHome, projectPaths } from "./paths.ts";
import type { Config } from "./schema.ts";
import type { NamedLayer } from "./settings.ts";

export interface LoadConfigOptions {
  /** Project root; without it only the global file and the environment count. */
  projectRoot?: string;
  env: NodeJS.ProcessEnv;
}

export function globalConfigPath(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "config.json");
}

/** The layers that exist, lowest first: the global file, the project file, the environment. */
export function readConfigLayers(options: LoadConfigOptions): NamedLayer[] {
  const layers: NamedLayer[] = [];
  const globalLayer = readConfigFile(globalConfigPath(options.env));
  if (globalLayer) layers.push({ ...globalLayer, kind: "global" });
  if (options.projectRoot !== undefined) {
    const projectLayer = readConfigFile(projectPaths(options.projectRoot).config);
    if (projectLayer) layers.push({ ...projectLayer, kind: "project" });
  }
  const environment = readEnvironmentLayer(options.env);
  if (Object.keys(environment.value).length > 0) layers.push({ ...environment, kind: "environment" });
  return layers;
}

/**
 * Validated configs kept between processes (store/config/config-cache.ts), by the exact layers they came from:
 * building and running the schema costs a hook process ~6 ms whenever any config file or CTX_* variable exists.
 */
export interface ConfigCache {
  get(key: string): Config | undefined;
  set(key: string, config: Config): void;
}

/** The cache key of a set of layers: their values and ctx's version (a new version may read them differently). */
export function configCacheKey(layers: readonly ConfigLayer[]): string {
  return JSON.stringify([CTX_VERSION, layers.map((layer) => layer.value)]);
}

/** The config when it needs no validation: the defaults (no layer), or the one cached for these exact layers;
 *  undefined when the layers must go through the schema (./load.ts). */
export function knownConfig(layers: readonly ConfigLayer[], cache: ConfigCache | undefined): Config | undefined {
  if (layers.length === 0) return defaultConfig();
  return cache?.get(configCacheKey(layers));
}

/** Reads one JSON config file; null when it does not exist. */
export function readConfigFile(path: string): ConfigLayer | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CtxError("CONFIG_INVALID", `${path}: cannot read (${(error as Error).message})`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CtxError("CONFIG_INVALID", `${path}: not valid JSON (${(error as Error).message})`, {
      hint: "fix the JSON syntax or delete the file to use the defaults",
      cause: error,
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CtxError("CONFIG_INVALID", `${path}: must be a JSON object`, {
      hint: 'e.g. {"retention": {"maxSnapshots": 10}}',
    });
  }
  return { source: path, value: value as Record<string, unknown> };
}

/**
 * `CTX_<SECTION>__<KEY>` for every leaf setting, e.g. CTX_GUARD__WARNING_PERCENT=25 or
 * CTX_BUDGET__CAPS__ACTIVE_TASK=5000. Values are typed by the default they replace.
 */
export function readEnvironmentLayer(env: NodeJS.ProcessEnv): ConfigLayer {
  const value: Record<string, unknown> = {};
  for (const leaf of configLeaves(defaultConfig())) {
    const raw = env[leaf.envName];
    if (raw === undefined || raw === "") continue;
    let cursor = value;
    for (const key of leaf.path.slice(0, -1)) {
      cursor[key] ??= {};
      cursor = cursor[key] as Record<string, unknown>;
    }
    cursor[leaf.path[leaf.path.length - 1] as string] = coerceEnvValue(raw, leaf.defaultValue, leaf.envName);
  }
  return { source: "environment", value };
}

function coerceEnvValue(raw: string, defaultValue: unknown, name: string): unknown {
  if (Array.isArray(defaultValue)) {
    return raw
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "");
  }
  if (typeof defaultValue === "number") {
    // Plain decimals only: Number() would take " " as 0 and "0x1E" as 30.
    if (!/^\s*-?\d+(\.\d+)?\s*$/.test(raw)) {
      throw new CtxError("CONFIG_INVALID", `environment ${name}: "${raw}" is not a number`, {
        hint: `e.g. ${name}=${String(defaultValue)}`,
      });
    }
    return Number(raw);
  }
  if (typeof defaultValue === "boolean") {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    throw new CtxError("CONFIG_INVALID", `environment ${name}: "${raw}" is not a boolean (use true or false)`);
  }
  return raw;
}
