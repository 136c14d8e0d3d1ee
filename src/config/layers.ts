// The config's layers, read without validating them: the global `<CTX_HOME>/config.json`, the project's
// `.ctx/config.json`, the `CTX_*` variables; and the config for layers already validated once (the cache). No zod
// here: a hook process whose config needs no validation (no layer, or cached) never loads the schema (./load.ts).
import { closeSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isRecord } from "../core/json/record.ts";
import { CtxError } from "../errors.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import { CTX_VERSION } from "../version.ts";
import { defaultConfig } from "./defaults.ts";
import { type ConfigLayer, configLeaves } from "./merge.ts";
import { ctxHome, projectPaths } from "./paths.ts";
import { openRegularFileSync } from "./regular-file.ts";
import type { Config } from "./schema.ts";
import type { NamedLayer } from "./settings.ts";
import { type IgnoredSettings, isTrustedProjectConfig, sensitiveKeysIn, withoutKeys } from "./trust.ts";

export interface LoadConfigOptions {
  /** Project root; without it only the global file and the environment count. */
  projectRoot?: string;
  env: NodeJS.ProcessEnv;
  /**
   * Where the one line about a project file's ignored sensitive settings goes (once per file and process);
   * stderr by default. `ctx doctor` and `ctx config` show them their own way and pass a no-op.
   */
  warn?: (line: string) => void;
}

const warned = new Set<string>();

export function globalConfigPath(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "config.json");
}

/** The layers that exist, lowest first: the global file, the project file, the environment. */
export function readConfigLayers(options: LoadConfigOptions): NamedLayer[] {
  const layers: NamedLayer[] = [];
  const globalLayer = readConfigFile(globalConfigPath(options.env));
  if (globalLayer) layers.push({ ...globalLayer, kind: "global" });
  if (options.projectRoot !== undefined) {
    const projectFile = readConfigFileBytes(projectPaths(options.projectRoot).config, { noFollow: true });
    if (projectFile) {
      const { layer, ignored } = trustProjectLayer(projectFile, globalLayer?.value);
      layers.push({ ...layer, kind: "project", ...(ignored ? { ignored } : {}) });
      if (ignored) warnIgnored(ignored, options.warn);
    }
  }
  const environment = readEnvironmentLayer(options.env);
  if (Object.keys(environment.value).length > 0) layers.push({ ...environment, kind: "environment" });
  return layers;
}

/**
 * Validated configs kept between processes (store/config/config-cache.ts), by the exact layers they came from:
 * building and running the schema would cost every hook process milliseconds whenever any config file or CTX_*
 * variable exists (zod's start-up: bench/run.ts hooks, importCostMs).
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

/**
 * The project layer as ctx may use it: whole when it sets no sensitive setting or the user trusts this exact file
 * (its path and SHA-256 in the user's own config), else without its sensitive settings, which are named.
 */
export function trustProjectLayer(
  file: ConfigLayer & { bytes: Buffer },
  userConfig: Record<string, unknown> | undefined,
): { layer: ConfigLayer; ignored?: IgnoredSettings } {
  const layer = { source: file.source, value: file.value };
  const keys = sensitiveKeysIn(file.value);
  if (keys.length === 0) return { layer };
  const { createHash } = process.getBuiltinModule("node:crypto");
  const sha256 = createHash("sha256").update(file.bytes).digest("hex");
  if (isTrustedProjectConfig(userConfig, file.source, sha256)) return { layer };
  return { layer: { ...layer, value: withoutKeys(file.value, keys) }, ignored: { file: file.source, keys, sha256 } };
}

function warnIgnored(ignored: IgnoredSettings, warn: ((line: string) => void) | undefined): void {
  const id = `${ignored.file}\0${ignored.sha256}`;
  if (warned.has(id)) return;
  warned.add(id);
  const line =
    `ctx: ignored ${ignored.keys.join(", ")} from ${ignored.file} (a project file may not set these until you ` +
    "trust it: review it, then run `ctx config trust`)";
  (warn ?? ((text: string) => process.stderr.write(`${sanitizeLogLine(text)}\n`)))(line);
}

/** Reads one JSON config file; null when it does not exist. */
export function readConfigFile(path: string): ConfigLayer | null {
  const file = readConfigFileBytes(path);
  return file && { source: file.source, value: file.value };
}

/**
 * Reads one JSON config file and keeps its bytes (for the trust hash); null when it does not exist. Only a regular
 * file is read (a FIFO would hang a hook); `noFollow` refuses a link (a repository's own file). A parse error never
 * quotes the file: a link or a copy could make it another file, a private key say.
 */
export function readConfigFileBytes(
  path: string,
  options: { noFollow?: boolean } = {},
): (ConfigLayer & { bytes: Buffer }) | null {
  let bytes: Buffer;
  try {
    const fd = openRegularFileSync(path, options);
    if (fd === null) return null;
    try {
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof CtxError) {
      throw new CtxError("CONFIG_INVALID", error.message, {
        ...(error.hint ? { hint: error.hint } : {}),
        cause: error,
      });
    }
    throw new CtxError("CONFIG_INVALID", `${path}: cannot read (${(error as Error).message})`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new CtxError("CONFIG_INVALID", `${path}: not valid JSON${at === undefined ? "" : ` (at byte ${at})`}`, {
      hint: "fix the JSON syntax or delete the file to use the defaults",
      cause: error,
    });
  }
  if (!isRecord(value)) {
    throw new CtxError("CONFIG_INVALID", `${path}: must be a JSON object`, {
      hint: 'e.g. {"retention": {"maxSnapshots": 10}}',
    });
  }
  return { source: path, value, bytes };
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
