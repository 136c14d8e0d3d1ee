// `ctx config get <key> [--global|--project] [--json] [--show-secrets]`: the effective value of one setting, or with
// --global/--project the value in that file (exit 1 when that file does not set it).
import type { Command } from "commander";
import { formatSettingValue, requireSettingLeaf, type Setting, SettingSchema, valueAt } from "../../config/settings.ts";
import { isSecretSetting } from "../../config/trust.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import {
  type ConfigHelpers,
  describeSecret,
  hideSecret,
  type ScopeFlags,
  scopeOf,
  withScope,
  withSecrets,
} from "./config-helpers.ts";

export function registerConfigGetCommand(config: Command, ctx: CliContext, helpers: ConfigHelpers): void {
  const { targetOf, layersNow, settingsNow } = helpers;
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
}
