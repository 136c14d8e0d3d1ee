// `ctx fork <session-id> [--at <uuid>] [--print] [--json] [--checkout <dir>]`: a session on this machine forks as
// /fork-detect offers it (`cd <cwd> && claude --resume <id> --fork-session`); a teammate's session is fetched from
// the team server (redacted before it was pushed), written into Claude Code's project folder for this machine's
// checkout of its project with its cwd fields moved there, then forked the same way. On a terminal without --print
// the command is offered to print, copy or run (the search picker's path); otherwise it is printed.

import { resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { Command } from "commander";
import { claudeConfigDir } from "../../config/claude-paths.ts";
import { loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { forkCommandFor } from "../../core/search/fork-candidates.ts";
import { hasControlCharacter } from "../../core/text/control-characters.ts";
import { isSessionId } from "../../core/transcript/session-id.ts";
import { CtxError } from "../../errors.ts";
import { findLocalSession } from "../../search/local-session.ts";
import type { ForkReport } from "../../team/fork-report.ts";
import { askCheckoutOn } from "../checkout-question.ts";
import type { CliContext } from "../command-io.ts";
import { recordForkRun } from "../fork-run-log.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import type { ForkTarget } from "../search-picker.ts";

interface ForkFlags {
  at?: string;
  print?: boolean;
  json?: boolean;
  checkout?: string;
}

export function registerForkCommand(program: Command, ctx: CliContext): void {
  program
    .command("fork")
    .description(COMMANDS.fork.description)
    .argument("<session-id>", "the session (as `ctx search` and /fork-detect show it)")
    .option("--at <uuid>", "end the fork at this message (`--resume-session-at`)")
    .option("--checkout <dir>", "this machine's checkout of a teammate's project (default: found by its git remote)")
    .option("--print", "print the command, even on a terminal")
    .option("--json", "print JSON for scripts")
    .action(async (sessionId: string, flags: ForkFlags) => {
      checkFileName(sessionId);
      const at = flags.at ?? null;
      if (at !== null && !isSessionId(at)) {
        throw new CtxError("USAGE", `--at takes a message's uuid, not ${JSON.stringify(at)}`, {
          hint: "the uuid of the message the fork should end at, as /fork-detect's `fork at the match` shows it",
        });
      }
      const report = await forkReport(ctx, sessionId, at, flags);
      // `ctx fork` names one session: printed or run, it is the fork the person chose (docs/forks.md).
      await recordForkRun(ctx, "fork", sessionId, at);
      if (flags.json === true) return ctx.out(formatJson(report));
      if (report.team !== undefined) ctx.err(teamNotice(report));
      const fork: ForkTarget = {
        sessionId,
        cwd: report.cwd,
        forkCommand: report.forkCommand,
        atUuid: at,
      };
      if (ctx.terminal === undefined || flags.print === true) return ctx.out(`${report.forkCommand}\n`);
      const { actOnFork, findClipboardTool, pickForkAction } = await import("../search-picker.ts");
      const terminal = ctx.terminal;
      const clipboard = findClipboardTool(ctx.env, process.platform);
      const action = await pickForkAction(report.forkCommand, report.cwd ?? "this folder", {
        input: terminal.input as Readable,
        output: terminal.output as Writable,
        clipboard,
      });
      if (action === null) {
        ctx.err("ctx: nothing done\n");
        ctx.setExitCode(130);
        return;
      }
      await actOnFork(ctx, action, fork, clipboard);
    });
}

/** A session id names a file in Claude Code's folder: no separator, no `.`/`..`, no control character. */
function checkFileName(sessionId: string): void {
  if (
    sessionId === "" ||
    sessionId === "." ||
    sessionId === ".." ||
    /[/\\]/.test(sessionId) ||
    hasControlCharacter(sessionId)
  ) {
    throw new CtxError("USAGE", `${JSON.stringify(sessionId)} is not a session id`, {
      hint: "`ctx search <words>` shows sessions with their ids",
    });
  }
}

async function forkReport(
  ctx: CliContext,
  sessionId: string,
  at: string | null,
  flags: ForkFlags,
): Promise<ForkReport> {
  const local = await findLocalSession(sessionId, ctx.env);
  if (local !== null) {
    return {
      sessionId,
      source: "local",
      cwd: local.cwd,
      forkCommand: forkCommandFor(sessionId, local.cwd, at),
      transcriptPath: local.transcriptPath,
      redacted: false,
    };
  }
  const config = loadConfig({ projectRoot: findProjectRoot(ctx.cwd, ctx.env), env: ctx.env });
  if (config.team.url === "" || config.team.name === "") {
    throw new CtxError("NOT_FOUND", `session ${sessionId} is not on this machine`, {
      hint: "`ctx search <words>` lists the sessions you can fork; a teammate's session needs `ctx team join` first",
    });
  }
  const { forkTeamSession } = await import("../../team/fork-flow.ts");
  const { refuseCheckoutQuestion } = await import("../../transplant/locate-checkout.ts");
  return forkTeamSession({
    sessionId,
    at,
    team: config.team,
    env: ctx.env,
    cwd: ctx.cwd,
    ...(flags.checkout === undefined ? {} : { checkout: resolve(ctx.cwd, flags.checkout) }),
    claudeDir: claudeConfigDir(ctx.env),
    // Only a terminal is asked for the checkout's folder; anything else gets the `--checkout <dir>` hint.
    askCheckout: ctx.terminal === undefined ? refuseCheckoutQuestion : askCheckoutOn(ctx.terminal),
  });
}

/** What the person is told about a fetched session (stderr: stdout keeps the command alone). */
function teamNotice(report: ForkReport): string {
  const team = report.team as NonNullable<ForkReport["team"]>;
  return [
    `ctx: session ${report.sessionId} "${team.title}" by ${team.author}, from team ${team.team}'s server`,
    "ctx: the transcript is the REDACTED copy its author pushed: secrets in it were replaced before it left their machine",
    `ctx: ${team.written ? "written to" : "already there, unchanged:"} ${report.transcriptPath}`,
    `ctx: its folders moved to this checkout: ${team.checkout} (${team.rewrittenCwdFields} cwd field(s))`,
    "",
  ].join("\n");
}
