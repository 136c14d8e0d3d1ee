// `ctx config list|get|set|unset|path [--global|--project] [--json]`: the four config layers (defaults, the global
// file, the project's file, CTX_* variables) seen and edited from the shell. Values are checked against the
// schema before anything is written; a refused value names the field and what it allows.
import type { Command } from "commander";
import * as z from "zod/mini";
import { globalConfigPath, loadConfigFromLayers, readConfigLayers } from "../../config/load.ts";
import { findProjectRoot, projectPaths } from "../../config/paths.ts";
import {
  formatSettingValue,
  listSettings,
  parseSettingValue,
  requireSettingLeaf,
  type Setting,
  SettingListSchema,
  SettingSchema,
  valueAt,
} from "../../config/settings.ts";
import { isSecretSetting, SENSITIVE_SETTINGS } from "../../config/trust.ts";
import { CtxError } from "../../errors.ts";
import {
  type ConfigFileTarget,
  setConfigValue,
  setProjectConfigTrust,
  unsetConfigValue,
} from "../../store/config/config-file.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";

interface ScopeFlags {
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

export const ConfigPathsSchema = z.object({
  global: z.object({ file: z.string(), exists: z.boolean() }),
  project: z.object({ file: z.string(), exists: z.boolean(), root: z.string() }),
});

const withScope = (command: Command, what: string) =>
  command
    .option("--global", `${what} the global file (<CTX_HOME>/config.json, ~/.ctx by default)`)
    .option("--project", `${what} this project's .ctx/config.json`)
    .option("--json", "print JSON for scripts");

function scopeOf(flags: ScopeFlags): "global" | "project" | null {
  if (flags.global && flags.project) throw new CtxError("USAGE", "pass --global or --project, not both");
  return flags.global ? "global" : flags.project ? "project" : null;
}

export function registerConfigCommand(program: Command, ctx: CliContext): void {
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

  const config = program.command("config").description(COMMANDS.config.description);

  withSecrets(
    withScope(config.command("list").description("every setting, its value and the layer it comes from"), "only"),
  ).action((flags: ScopeFlags) => {
    const scope = scopeOf(flags);
    const settings = settingsNow()
      .filter((s) => scope === null || s.source === scope)
      .map((s) => hideSecret(s, flags));
    noteIgnored();
    if (flags.json) {
      ctx.out(formatJson(SettingListSchema.parse({ settings })));
      return;
    }
    ctx.out(formatRows(settings.map((s) => [s.key, `${formatSettingValue(s.value)}  (${describeSource(s)})`])));
  });

  withSecrets(
    withScope(
      config
        .command("get")
        .description("the effective value of one setting (with --global/--project: the value in that file)")
        .argument("<key>", "a dotted key, e.g. search.minSimilarity"),
      "read",
    ),
  ).action((key: string, flags: ScopeFlags) => {
    requireSettingLeaf(key);
    const scope = scopeOf(flags);
    const setting = hideSecret(settingsNow().find((s) => s.key === key) as Setting, flags);
    if (scope !== null) {
      const layer = layersNow().find((l) => l.kind === scope);
      const raw = layer ? valueAt(layer.value, key.split(".")) : undefined;
      const value = raw === undefined || flags.showSecrets || !isSecretSetting(key) ? raw : describeSecret(raw);
      if (value === undefined) {
        ctx.err(`ctx: ${key} is not set in the ${scope} file (${targetOf(scope).path})\n`);
        ctx.setExitCode(1);
        if (flags.json) ctx.out(formatJson({ key, scope, file: targetOf(scope).path, value: null }));
        return;
      }
      ctx.out(
        flags.json ? formatJson({ key, scope, file: targetOf(scope).path, value }) : `${formatSettingValue(value)}\n`,
      );
      return;
    }
    ctx.out(flags.json ? formatJson(SettingSchema.parse(setting)) : `${formatSettingValue(setting.value)}\n`);
  });

  withScope(
    config
      .command("set")
      .description("write one setting to the global file (default) or, with --project, to .ctx/config.json")
      .argument("<key>", "a dotted key, e.g. search.minSimilarity")
      .argument("<value>", "checked against the setting's type and range before anything is written"),
    "write to",
  ).action(async (key: string, raw: string, flags: ScopeFlags) => {
    const scope = scopeOf(flags) ?? "global";
    const value = parseSettingValue(key, raw);
    const edit = await setConfigValue(targetOf(scope), key, value);
    const shown = (v: unknown) => (isSecretSetting(key) && v !== undefined ? describeSecret(v) : v);
    if (scope === "project" && SENSITIVE_SETTINGS[key] !== undefined) {
      ctx.err(
        `ctx: note: ${key} is a sensitive setting: from a project file it is used only once you trust the file ` +
          "(`ctx config trust`), or set it in your own file (--global)\n",
      );
    }
    report(
      flags,
      scope,
      edit.changed
        ? `set ${key} = ${formatSettingValue(shown(value))} in ${edit.path}`
        : `${key} is already ${formatSettingValue(shown(value))} in ${edit.path}`,
      {
        key,
        file: edit.path,
        scope,
        before: shown(edit.before),
        after: shown(edit.after),
        changed: edit.changed,
      },
    );
  });

  withScope(
    config
      .command("unset")
      .description("remove one setting from the global file (default) or, with --project, from .ctx/config.json")
      .argument("<key>", "a dotted key"),
    "remove from",
  ).action(async (key: string, flags: ScopeFlags) => {
    const scope = scopeOf(flags) ?? "global";
    const target = targetOf(scope);
    // A key the schema no longer knows may still be removed when the file holds it (that is how to fix the file).
    const holdsIt = layersNow().some((l) => l.kind === scope && valueAt(l.value, key.split(".")) !== undefined);
    if (!holdsIt) requireSettingLeaf(key);
    const edit = await unsetConfigValue(target, key);
    report(flags, scope, edit.changed ? `removed ${key} from ${edit.path}` : `${key} was not set in ${edit.path}`, {
      key,
      file: edit.path,
      scope,
      before: isSecretSetting(key) && edit.before !== undefined ? describeSecret(edit.before) : edit.before,
      changed: edit.changed,
    });
  });

  const trustCommand = (name: "trust" | "untrust", description: string) =>
    config
      .command(name)
      .description(description)
      .option("--json", "print JSON for scripts")
      .action(async (flags: { json?: boolean }) => {
        const root = projectRoot();
        const file = projectPaths(root).config;
        const layer = layersNow(root).find((l) => l.kind === "project");
        if (name === "trust" && layer === undefined) {
          throw new CtxError("USAGE", `${file} does not exist: there is nothing to trust`, {
            hint: "run this in the project whose .ctx/config.json you reviewed",
          });
        }
        const keys = layer?.ignored?.keys ?? [];
        const sha256 = layer?.ignored?.sha256 ?? null;
        if (name === "trust" && sha256 === null) {
          const text = `${file} sets no sensitive setting (or is trusted as it is): nothing to trust\n`;
          ctx.out(flags.json ? formatJson({ file, trusted: true, changed: false, keys: [] }) : text);
          return;
        }
        const edit = await setProjectConfigTrust(globalConfigPath(ctx.env), file, name === "trust" ? sha256 : null);
        const text =
          name === "trust"
            ? `trusted ${file} as it is now (sha256 ${sha256?.slice(0, 12)}…): ${keys.join(", ")} now apply; ` +
              "any change to the file needs `ctx config trust` again\n"
            : edit.changed
              ? `${file} is no longer trusted: its sensitive settings are ignored\n`
              : `${file} was not trusted\n`;
        ctx.out(flags.json ? formatJson({ file, trusted: name === "trust", changed: edit.changed, keys }) : text);
      });
  trustCommand(
    "trust",
    "let this project's .ctx/config.json set sensitive settings (programs, URLs, paths, credentials), as it is now",
  );
  trustCommand("untrust", "take back `ctx config trust` for this project's .ctx/config.json");

  withScope(config.command("path").description("the config files ctx reads, and whether each exists"), "only").action(
    (flags: ScopeFlags) => {
      const scope = scopeOf(flags);
      const root = projectRoot();
      const layers = layersNow(root);
      const paths = {
        global: { file: globalConfigPath(ctx.env), exists: layers.some((l) => l.kind === "global") },
        project: { file: projectPaths(root).config, exists: layers.some((l) => l.kind === "project"), root },
      };
      if (flags.json) {
        ctx.out(formatJson(scope === null ? ConfigPathsSchema.parse(paths) : paths[scope]));
        return;
      }
      if (scope !== null) {
        ctx.out(`${paths[scope].file}\n`);
        return;
      }
      const mark = (exists: boolean) => (exists ? "" : "  (not created yet)");
      ctx.out(
        formatRows([
          ["global", `${paths.global.file}${mark(paths.global.exists)}`],
          ["project", `${paths.project.file}${mark(paths.project.exists)}`],
        ]),
      );
    },
  );

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
}

const withSecrets = (command: Command) =>
  command.option("--show-secrets", "print credentials (tokens, the incoming URL) in clear instead of (set, N chars)");

/** A credential as `ctx config` shows it unless asked: whether it is set, and its length. */
function describeSecret(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text === "" ? "" : `(set, ${text.length} chars)`;
}

function hideSecret(setting: Setting, flags: ScopeFlags): Setting {
  if (flags.showSecrets || !isSecretSetting(setting.key)) return setting;
  return { ...setting, value: describeSecret(setting.value), default: describeSecret(setting.default) };
}

function describeSource(setting: Setting): string {
  if (setting.source === "default") return "default";
  if (setting.source === "environment") return `environment ${setting.from ?? setting.envName}`;
  return `${setting.source} ${setting.from ?? ""}`.trim();
}
