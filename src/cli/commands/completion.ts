// `ctx completion bash|zsh|fish`: prints the shell's completion script, generated from the commands registered
// at the time it runs (see ../completion.ts), with setting keys, shells and hook events as argument values.
import type { Command } from "commander";
import { settingKeys } from "../../config/settings.ts";
import { HOOK_EVENT_NAMES } from "../../core/hooks/events.ts";
import { CtxError } from "../../errors.ts";
import type { CliContext } from "../command-io.ts";
import { completionNodes, completionScript, SHELLS, type Shell } from "../completion.ts";

export function registerCompletionCommand(program: Command, ctx: CliContext): void {
  program
    .command("completion")
    .description("print the shell completion script for bash, zsh or fish")
    .argument("<shell>", SHELLS.join(" | "))
    .action((shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new CtxError("USAGE", `no completion for "${shell}"`, { hint: `one of ${SHELLS.join(", ")}` });
      }
      const keys = settingKeys();
      const nodes = completionNodes(program, {
        "config get": keys,
        "config set": keys,
        "config unset": keys,
        completion: SHELLS,
        hook: HOOK_EVENT_NAMES,
      });
      ctx.out(completionScript(shell as Shell, nodes));
    });
}
