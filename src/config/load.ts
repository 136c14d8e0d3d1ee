// Loads the config: defaults <- global `<CTX_HOME>/config.json` <- project `.ctx/config.json` <- `CTX_*`
// environment variables (read in ./layers.ts). An invalid file or variable is a CONFIG_INVALID error naming where
// it came from.
import { CtxError } from "../errors.ts";
import { defaultConfig, withDefaults } from "./defaults.ts";
import { type ConfigCache, configCacheKey, type LoadConfigOptions, readConfigLayers } from "./layers.ts";
import { type ConfigLayer, configLeaves, formatConfigIssue, mergeLayers, sourceOfPath } from "./merge.ts";
import { type Config, configSchema } from "./schema.ts";

export {
  type ConfigCache,
  configCacheKey,
  globalConfigPath,
  type LoadConfigOptions,
  readConfigFile,
  readConfigLayers,
  readEnvironmentLayer,
} from "./layers.ts";

/** The config for a command or the server; hooks and the status line use the cache (store/config/config-cache.ts). */
export function loadConfig(options: LoadConfigOptions): Config {
  return loadConfigFromLayers(readConfigLayers(options));
}

/** The layers through the schema; the result is kept in the cache (an invalid config throws and is never kept). */
export function validateLayers(layers: readonly ConfigLayer[], cache?: ConfigCache): Config {
  const config = loadConfigFromLayers(layers);
  if (layers.length > 0) cache?.set(configCacheKey(layers), config);
  return config;
}

export function loadConfigFromLayers(layers: readonly ConfigLayer[]): Config {
  if (layers.length === 0) return defaultConfig();

  const result = configSchema().safeParse(withDefaults(mergeLayers(layers)));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new CtxError("CONFIG_INVALID", "invalid configuration");
  // An unknown key is reported at its parent's path; the layer to blame is the one holding the key itself.
  const blamed = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
  let source = sourceOfPath(layers, blamed);
  if (source === "environment") {
    source =
      `environment ${configLeaves(defaultConfig()).find((l) => l.path.join(".") === issue.path.join("."))?.envName ?? ""}`.trim();
  }
  throw new CtxError("CONFIG_INVALID", `${source}: ${formatConfigIssue(issue)}`, {
    hint: "fix or remove that setting; `ctx doctor` lists every config file ctx reads",
  });
}
