// `ctx config list [--global|--project] [--json] [--show-secrets]`: every setting, its value and the layer it comes
// from (credentials hidden unless --show-secrets).
import type { Command } from "commander";
import { formatSettingValue, SettingListSchema } from "../../config/settings.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson, formatRows } from "../output.ts";
import {
  type ConfigHelpers,
  describeSource,
  hideSecret,
  type ScopeFlags,
  scopeOf,
  withScope,
  withSecrets,
} from "./config-helpers.ts";

export function registerConfigListCommand(config: Command, ctx: CliContext, helpers: ConfigHelpers): void {
  const { settingsNow, noteIgnored } = helpers;
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
}
