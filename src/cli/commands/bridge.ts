// `ctx bridge synology [--host H] [--port N]`: the Synology Chat bridge in the foreground (one log line per message
// on stderr, SIGINT/SIGTERM stop it cleanly), and `ctx bridge status [--json]`: its conversations. The service
// is loaded only by `ctx bridge synology`, so no other command pays for Hono.
import type { Command } from "commander";
import { loadConfig } from "../../config/load.ts";
import { formatAge } from "../../core/bridge/outbox.ts";
import { type BridgeStatusReport, BridgeStatusReportSchema, conversationPlace } from "../../core/bridge/status.ts";
import { CtxError } from "../../errors.ts";
import { collectBridgeStatus } from "../../store/bridge/status.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import { CTX_VERSION } from "../../version.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

interface SynologyFlags {
  host?: string;
  port?: string;
}

export function registerBridgeCommand(program: Command, ctx: CliContext): void {
  const bridge = program.command("bridge").description(COMMANDS.bridge.description);

  bridge
    .command("synology")
    .description("run the Synology Chat bridge in the foreground (stop with Ctrl-C or SIGTERM)")
    .option("--host <host>", "listen address (default bridge.host, 127.0.0.1)")
    .option("--port <n>", "listen port (default bridge.port, 8787; 0 picks a free one, logged at start)")
    .addHelpText(
      "after",
      "\nNeeds bridge.synology.token and bridge.synology.incomingUrl (config or CTX_BRIDGE__SYNOLOGY__* variables).",
    )
    .action(async (flags: SynologyFlags) => {
      const config = loadConfig({ env: ctx.env });
      const { startBridge } = await import("../../bridge/service.ts");
      const running = await startBridge({
        config,
        env: ctx.env,
        version: CTX_VERSION,
        ...(flags.host === undefined ? {} : { host: flags.host }),
        ...(flags.port === undefined ? {} : { port: parsePort(flags.port) }),
        // One log line per event: a chat user's name or text can neither add a line nor reach the terminal raw.
        log: (line) => ctx.err(`${sanitizeLogLine(line)}\n`),
      });
      const stop = () => void running.stop();
      const offInterrupt = ctx.onInterrupt?.(stop);
      process.once("SIGTERM", stop);
      await running.stopped;
      offInterrupt?.();
      process.off("SIGTERM", stop);
      ctx.err("bridge: stopped\n");
    });

  bridge
    .command("status")
    .description("list the bridge's conversations and the messages it still owes")
    .option("--json", "print JSON for scripts")
    .action(async (flags: { json?: boolean }) => {
      const report = BridgeStatusReportSchema.parse(await collectBridgeStatus(ctx.env));
      ctx.out(flags.json === true ? formatJson(report) : formatBridgeStatus(report));
    });
}

function parsePort(raw: string): number {
  const port = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CtxError("USAGE", `--port must be a port number (0-65535; 0 picks a free one), got "${raw}"`, {
      hint: "for example `ctx bridge synology --port 8787`",
    });
  }
  return port;
}

function formatBridgeStatus(report: BridgeStatusReport): string {
  const lines = [`Bridge sessions in ${report.sessionsDir}: ${report.sessions.length}`];
  for (const row of report.sessions) {
    // The name and the channel come from the chat: one line each, whatever a person put in them.
    lines.push(
      `  ${sanitizeLogLine(row.username)} (${sanitizeLogLine(conversationPlace(row))}): ${row.messages} messages, ${row.contextTokens.toLocaleString("en-US")} tokens, ` +
        `last ${row.lastActiveAt.replace("T", " ").slice(0, 16)} UTC, summarised ${row.summarizedAt === null ? "never" : row.summarizedAt.replace("T", " ").slice(0, 16)}, ` +
        `${row.fileBytes.toLocaleString("en-US")} bytes`,
    );
  }
  lines.push(`Messages accepted and not yet answered: ${report.pendingMessages}`);
  lines.push(
    report.pendingParts === 0
      ? "Reply parts waiting for the chat: 0"
      : `Reply parts waiting for the chat: ${report.pendingParts}, the oldest for ${formatAge((report.oldestPendingSeconds ?? 0) * 1000)} (since ${(report.oldestPendingAt ?? "").replace("T", " ").slice(0, 16)} UTC)`,
  );
  for (const path of report.unreadable) lines.push(`  unreadable: ${path} (damaged; move it aside or delete it)`);
  return `${lines.join("\n")}\n`;
}
