// `ctx config trust` / `untrust [--json]`: let this project's .ctx/config.json set sensitive settings as it is now
// (its SHA-256 recorded in the global file), or take that back.
import type { Command } from "commander";
import { globalConfigPath } from "../../config/load.ts";
import { projectPaths } from "../../config/paths.ts";
import { CtxError } from "../../errors.ts";
import { setProjectConfigTrust } from "../../store/config/config-file.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import type { ConfigHelpers } from "./config-helpers.ts";

export function registerConfigTrustCommands(config: Command, ctx: CliContext, helpers: ConfigHelpers): void {
  const { projectRoot, layersNow } = helpers;
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
}
