// `ctx config set <key> <value> [--global|--project] [--json]`: one setting written to a config file, checked
// against the schema before anything is written.
import type { Command } from "commander";
import { formatSettingValue, parseSettingValue } from "../../config/settings.ts";
import { isSecretSetting, SENSITIVE_SETTINGS } from "../../config/trust.ts";
import { setConfigValue } from "../../store/config/config-file.ts";
import type { CliContext } from "../command-io.ts";
import { type ConfigHelpers, describeSecret, type ScopeFlags, scopeOf, withScope } from "./config-helpers.ts";

export function registerConfigSetCommand(config: Command, ctx: CliContext, helpers: ConfigHelpers): void {
  const { targetOf, report } = helpers;
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
}
