// `ctx config unset <key> [--global|--project] [--json]`: one setting removed from a config file (a key the schema
// no longer knows too, when the file holds it).
import type { Command } from "commander";
import { requireSettingLeaf, valueAt } from "../../config/settings.ts";
import { isSecretSetting } from "../../config/trust.ts";
import { unsetConfigValue } from "../../store/config/config-file.ts";
import { type ConfigHelpers, describeSecret, type ScopeFlags, scopeOf, withScope } from "./config-helpers.ts";

export function registerConfigUnsetCommand(config: Command, helpers: ConfigHelpers): void {
  const { targetOf, layersNow, report } = helpers;
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
}
