// `ctx config path [--global|--project] [--json]`: the config files ctx reads, and whether each exists.
import type { Command } from "commander";
import * as z from "zod/mini";
import { globalConfigPath } from "../../config/load.ts";
import { projectPaths } from "../../config/paths.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson, formatRows } from "../output.ts";
import { type ConfigHelpers, type ScopeFlags, scopeOf, withScope } from "./config-helpers.ts";

export const ConfigPathsSchema = z.object({
  global: z.object({ file: z.string(), exists: z.boolean() }),
  project: z.object({ file: z.string(), exists: z.boolean(), root: z.string() }),
});

export function registerConfigPathCommand(config: Command, ctx: CliContext, helpers: ConfigHelpers): void {
  const { projectRoot, layersNow } = helpers;
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
}
