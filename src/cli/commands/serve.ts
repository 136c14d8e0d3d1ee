// `ctx serve`: the stdio MCP server Claude Code starts (from .mcp.json or the plugin).
import type { Command } from "commander";
import { findProjectRoot, requireProjectDir } from "../../config/paths.ts";
import { CTX_VERSION } from "../../version.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";

export function registerServeCommand(program: Command, ctx: CliContext): void {
  program
    .command("serve")
    .description(COMMANDS.serve.description)
    .option("--project <dir>", "project folder (default: $CLAUDE_PROJECT_DIR, else found from the current folder)")
    .action(async (options: { project?: string }) => {
      // Loaded here so that no other command pays for the MCP SDK.
      const { serveStdio } = await import("../../mcp/stdio.ts");
      await serveStdio({
        version: CTX_VERSION,
        projectRoot:
          options.project !== undefined
            ? requireProjectDir(ctx.cwd, options.project)
            : findProjectRoot(ctx.cwd, ctx.env),
        logger: ctx.logger,
        stdin: process.stdin,
        stdout: process.stdout,
        ...(ctx.cliPath ? { background: { cliPath: ctx.cliPath, execPath: process.execPath } } : {}),
      });
    });
}
