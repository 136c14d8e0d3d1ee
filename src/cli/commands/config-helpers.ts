// What the `ctx config` subcommands share: their --global/--project/--json and --show-secrets flags, how a credential
// and a layer are shown, and, bound to one CliContext, the project, its config files and layers as they are now, and
// the report of an edit (naming a higher layer that still wins over it).
import type { Command } from "commander";
import * as z from "zod/mini";
import { globalConfigPath, loadConfigFromLayers, readConfigLayers } from "../../config/load.ts";
import { findProjectRoot, projectPaths } from "../../config/paths.ts";
import { listSettings, type Setting } from "../../config/settings.ts";
import { isSecretSetting } from "../../config/trust.ts";
import { CtxError } from "../../errors.ts";
import type { ConfigFileTarget } from "../../store/config/config-file.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";

export interface ScopeFlags {
  global?: boolean;
  project?: boolean;
  json?: boolean;
  showSecrets?: boolean;
}

export const ConfigEditResultSchema = z.object({
  key: z.string(),
  file: z.string(),
  scope: z.enum(["global", "project"]),
  before: z.optional(z.unknown()),
  after: z.optional(z.unknown()),
  changed: z.boolean(),
  /** A higher layer that still wins over this file for this key, if any. */
  overriddenBy: z.nullable(z.string()),
});
export type ConfigEditResult = z.infer<typeof ConfigEditResultSchema>;

export const withScope = (command: Command, what: string) =>
  command
    .option("--global", `${what} the global file (<CTX_HOME>/config.json, ~/.ctx by default)`)
    .option("--project", `${what} this project's .ctx/config.json`)
    .option("--json", "print JSON for scripts");

export function scopeOf(flags: ScopeFlags): "global" | "project" | null {
  if (flags.global && flags.project) throw new CtxError("USAGE", "pass --global or --project, not both");
  return flags.global ? "global" : flags.project ? "project" : null;
}

/** The subcommands' view of the config through `ctx`, read afresh at each call. */
export function createConfigHelpers(ctx: CliContext) {
  const projectRoot = () => findProjectRoot(ctx.cwd, ctx.env);
  const targetOf = (scope: "global" | "project"): ConfigFileTarget => {
    if (scope === "global") return { path: globalConfigPath(ctx.env) };
    const root = projectRoot();
    return { path: projectPaths(root).config, projectRoot: root };
  };
  // ctx config shows a project file's ignored settings its own way (below), not as the one-line warning.
  const layersNow = (root = projectRoot()) => readConfigLayers({ projectRoot: root, env: ctx.env, warn: () => {} });
  const settingsNow = (): Setting[] => {
    const layers = layersNow();
    const effective = loadConfigFromLayers(layers) as unknown as Record<string, unknown>;
    return listSettings(effective, layers);
  };
  const noteIgnored = () => {
    const ignored = layersNow().find((l) => l.ignored)?.ignored;
    if (ignored) {
      ctx.err(
        `ctx: note: ${ignored.file} sets ${ignored.keys.join(", ")}, ignored until you trust the file ` +
          "(review it, then `ctx config trust`)\n",
      );
    }
  };

  const report = (
    flags: ScopeFlags,
    scope: "global" | "project",
    text: string,
    result: Omit<ConfigEditResult, "overriddenBy">,
  ) => {
    // Another layer may be broken (a bad CTX_* variable, say): this file was still written and checked.
    let setting: Setting | undefined;
    try {
      setting = settingsNow().find((s) => s.key === result.key);
    } catch {
      setting = undefined;
    }
    const higher = scope === "global" ? ["project", "environment"] : ["environment"];
    const overriddenBy = setting && higher.includes(setting.source) ? describeSource(setting) : null;
    if (overriddenBy !== null) ctx.err(`ctx: note: ${result.key} is still taken from the ${overriddenBy}\n`);
    ctx.out(flags.json ? formatJson(ConfigEditResultSchema.parse({ ...result, overriddenBy })) : `${text}\n`);
  };
  return { projectRoot, targetOf, layersNow, settingsNow, noteIgnored, report };
}
export type ConfigHelpers = ReturnType<typeof createConfigHelpers>;

export const withSecrets = (command: Command) =>
  command.option("--show-secrets", "print credentials (tokens, the incoming URL) in clear instead of (set, N chars)");

/** A credential as `ctx config` shows it unless asked: whether it is set, and its length. */
export function describeSecret(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text === "" ? "" : `(set, ${text.length} chars)`;
}

export function hideSecret(setting: Setting, flags: ScopeFlags): Setting {
  if (flags.showSecrets || !isSecretSetting(setting.key)) return setting;
  return { ...setting, value: describeSecret(setting.value), default: describeSecret(setting.default) };
}

export function describeSource(setting: Setting): string {
  if (setting.source === "default") return "default";
  if (setting.source === "environment") return `environment ${setting.from ?? setting.envName}`;
  return `${setting.source} ${setting.from ?? ""}`.trim();
}
