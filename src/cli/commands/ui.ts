// `ctx ui [--port N] [--open] [--json]`: the local page over the session index and library (docs/ui.md), served in the
// foreground until Ctrl-C or SIGTERM, after which the port is free. It prints the URL to open, which carries a
// one-time token (quoted for a shell); `--open` hands it to the system's opener when one is on PATH; `--json` prints
// `{url, port, pid}` on one line once the page listens. The service (Hono and the pages) loads only here.
import { spawn } from "node:child_process";
import type { Command } from "commander";
import { findProjectRoot } from "../../config/paths.ts";
import { quoteShellWord } from "../../core/shell/quote.ts";
import { CtxError } from "../../errors.ts";
import { loadCachedConfig } from "../../store/config/config-cache.ts";
import { teamCandidatesPort } from "../../team/search-port.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { onPath } from "../on-path.ts";

interface UiFlags {
  port?: string;
  open?: boolean;
  json?: boolean;
}

export function registerUiCommand(program: Command, ctx: CliContext): void {
  program
    .command("ui")
    .description(COMMANDS.ui.description)
    .option("--port <n>", "listen on this port of 127.0.0.1 (default: a free one)")
    .option("--open", "open the page in the default browser (xdg-open or open, when on PATH)")
    .option("--json", 'print {"url","port","pid"} on one line once the page listens')
    .action(async (flags: UiFlags) => {
      const port = flags.port === undefined ? 0 : parsePort(flags.port);
      const projectRoot = findProjectRoot(ctx.cwd, ctx.env);
      const config = await loadCachedConfig({ projectRoot, env: ctx.env });
      const { startUi } = await import("../../ui/service.ts");
      const running = await startUi({
        config,
        env: ctx.env,
        projectRoot,
        port,
        teamCandidates: teamCandidatesPort(config, ctx.env),
        warn: (line) => ctx.err(`${sanitizeLogLine(line)}\n`),
      });
      let stopping = false;
      let release: () => void = () => {};
      const stopped = new Promise<void>((resolve) => {
        const stop = () => {
          if (stopping) return;
          stopping = true;
          void running.stop().then(resolve);
        };
        const offInterrupt = ctx.onInterrupt?.(stop);
        process.once("SIGTERM", stop);
        release = () => {
          offInterrupt?.();
          process.off("SIGTERM", stop);
        };
      });
      if (flags.json === true) {
        ctx.out(`${JSON.stringify({ url: running.url, port: running.port, pid: process.pid })}\n`);
      } else {
        ctx.out(`${quoteShellWord(running.url)}\n`);
        ctx.err(`ui: listening on 127.0.0.1:${running.port}; open the link above (it works once); Ctrl-C stops it\n`);
      }
      if (flags.open === true) openInBrowser(running.url, ctx);
      await stopped;
      release();
      ctx.err("ui: stopped\n");
    });
}

/** The system's opener, when one is on PATH; otherwise a line saying to open the link by hand. Never fails. */
function openInBrowser(url: string, ctx: CliContext): void {
  const opener = process.platform === "darwin" ? "open" : "xdg-open";
  if (!onPath(opener, ctx.env)) {
    ctx.err(`ui: ${opener} is not on PATH; open the link yourself\n`);
    return;
  }
  const child = spawn(opener, [url], { detached: true, stdio: "ignore", env: ctx.env });
  child.on("error", () => ctx.err(`ui: could not run ${opener}; open the link yourself\n`));
  child.unref();
}

function parsePort(raw: string): number {
  const port = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CtxError("USAGE", `--port must be a port number (0-65535; 0 picks a free one), not "${raw}"`, {
      hint: "for example `ctx ui --port 8790`, or no --port for a free one",
    });
  }
  return port;
}
