// `ctx team push [--retry-set-aside] [--background]`: what is queued for the team sent now (it is also sent in the
// background after each index).
import type { Command } from "commander";
import { resolveIndexPath } from "../../search/paths.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import type { JsonFlag, TeamCommandKit } from "./team-shared.ts";

export function registerTeamPushCommand(team: Command, ctx: CliContext, kit: TeamCommandKit): void {
  const { config, joinedServer } = kit;
  team
    .command("push")
    .description("send what is queued for the team now (it is also sent in the background after each index)")
    .option("--json", "print JSON for scripts")
    .option("--background", "run as the background pusher: leave at once if another is running, print nothing")
    .option("--retry-set-aside", "try the sessions set aside again (the server refused them: `ctx team status`)")
    .action(async (flags: JsonFlag & { background?: boolean; retrySetAside?: boolean }) => {
      const server = joinedServer();
      const { drainOutbox } = await import("../../team/pusher.ts");
      const { readSharedProjects } = await import("../../store/team/team-state.ts");
      const settings = config();
      const quiet = flags.background === true || flags.json === true;
      const result = await drainOutbox(
        {
          url: server.url,
          team: server.team,
          connectTimeoutMs: server.options.connectTimeoutMs,
          lockTimeoutMs: server.options.lockTimeoutMs,
          statementTimeoutMs: server.options.statementTimeoutMs,
          env: ctx.env,
          dbPath: resolveIndexPath(ctx.env),
          shared: await readSharedProjects(ctx.env),
          maxTranscriptMegabytes: settings.team.maxTranscriptMegabytes,
          allowlist: settings.redaction.allowlist,
          retrySetAside: flags.retrySetAside === true,
          onProgress: (p) => {
            if (!quiet && p.pendingSessions > p.sessions + p.setAside) {
              ctx.err(`pushing: ${p.sessions} sessions, ${p.chunks} chunks sent; ${p.pendingSessions} were queued\n`);
            }
          },
        },
        // A manual push waits for a running pusher (it ends when the outbox is empty) rather than doing nothing.
        { waitMs: flags.background === true ? 0 : 120_000 },
      );
      if (flags.background === true) return;
      if (result.outcome === "failed") ctx.setExitCode(1);
      if (flags.json) return ctx.out(formatJson(result));
      if (result.outcome === "failed")
        return ctx.err(
          `push failed: ${sanitizeLogLine(result.error)}\nthe outbox keeps everything for the next push\n`,
        );
      if (result.outcome === "busy") return ctx.out("another pusher is running\n");
      const s = result.summary;
      if (s.setAside > 0) {
        ctx.err(
          `${s.setAside} session${s.setAside === 1 ? "" : "s"} set aside: the server refused ${s.setAside === 1 ? "it" : "them"} (\`ctx team status\` says why); the rest went on\n`,
        );
      }
      ctx.out(
        s.sessions === 0 && s.dropped === 0
          ? "nothing to push\n"
          : `pushed ${s.sessions} session${s.sessions === 1 ? "" : "s"} (${s.chunks} chunks, ${s.messages} messages, ${s.transcripts} transcripts${s.notForkable > 0 ? `, ${s.notForkable} over team.maxTranscriptMegabytes: not forkable` : ""}) in ${s.durationMs} ms` +
              `${s.othersSessions > 0 ? `; ${s.othersSessions} teammate session${s.othersSessions === 1 ? "" : "s"} fetched by ctx fork left to their author` : ""}\n`,
      );
    });
}
