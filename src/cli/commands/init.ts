// `ctx init`: wires ctx into the project's Claude Code settings (hooks, MCP server, /fork-detect, .ctx/,
// .gitignore), or takes that wiring out again with --remove. The logic lives in src/core/setup/init-*.ts and
// src/setup/init-project.ts; this file parses options and prints.
import { resolve } from "node:path";
import type { Command } from "commander";
import { assertOwnProjectCtx, findProjectRoot } from "../../config/paths.ts";
import type { HookWiring } from "../../core/setup/init/hooks-spec.ts";
import { buildInitReport, formatInitReport } from "../../core/setup/init/report.ts";
import { CtxError } from "../../errors.ts";
import { applyInitPlan, planProjectInit } from "../../setup/init-project.ts";
import type { SelfInfo } from "../../setup/self.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

interface InitCommandOptions {
  dryRun?: boolean;
  remove?: boolean;
  json?: boolean;
  command?: string;
  project?: string;
  statusline?: boolean;
  force?: boolean;
  hooks?: string;
}

export interface InitCommandDeps {
  self?: SelfInfo;
}

export function registerInitCommand(program: Command, ctx: CliContext, deps: InitCommandDeps = {}): void {
  program
    .command("init")
    .description(COMMANDS.init.description)
    .option("--dry-run", "show what would change, write nothing")
    .option("--remove", "take ctx's wiring out again (keeps .ctx/ data)")
    .option("--json", "print the plan/result as JSON")
    .option("--command <cmd>", "the command Claude Code should run for ctx (default: found on PATH)")
    .option("--project <dir>", "the project folder (default: the repository around the current folder)")
    .option("--statusline", "also point Claude Code's status line at `ctx statusline` (context guard bar)")
    .option("--force", "with --statusline: replace a status line that is not ctx's")
    .option(
      "--hooks <how>",
      "PostToolUse as `mcp`: a call to ctx's MCP server, no process per tool call (default); or `command`: a process",
    )
    .action(async (options: InitCommandOptions) => {
      const hooks = parseHookWiring(options.hooks);
      // A named folder is checked as a found one is: its `.ctx/` neither a link nor another user's (config/paths.ts).
      if (options.project !== undefined) assertOwnProjectCtx(resolve(ctx.cwd, options.project), ctx.env);
      const projectDir = options.project ?? findProjectRoot(ctx.cwd, ctx.env);
      const result = await planProjectInit(projectDir, {
        mode: options.remove ? "remove" : "install",
        env: ctx.env,
        statusLine: options.statusline === true,
        force: options.force === true,
        hooks,
        ...(options.command === undefined ? {} : { command: options.command }),
        ...(deps.self === undefined ? {} : { self: deps.self }),
      });
      const dryRun = options.dryRun === true;
      if (!dryRun) await applyInitPlan(result.project, result.changes);
      ctx.logger.debug(`init: ${result.changes.filter((change) => change.operation).length} file(s) to change`);
      const report = buildInitReport({ ...result, dryRun });
      if (options.json) {
        ctx.out(formatJson(report));
        return;
      }
      ctx.out(formatInitReport(report));
      for (const warning of report.warnings) ctx.err(`ctx: warning: ${warning}\n`);
    });
}

function parseHookWiring(value: string | undefined): HookWiring {
  if (value === undefined || value === "mcp") return "mcp";
  if (value === "command") return "command";
  throw new CtxError("USAGE", `--hooks takes mcp or command, not "${value}"`, {
    hint: "mcp: PostToolUse calls ctx's MCP server (no process); command: `ctx hook post-tool-use` per tool call",
  });
}
