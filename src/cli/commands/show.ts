// `ctx show <id> [--at <uuid>] [--json] [--no-pager]`: a session to read before forking it (docs/preview.md): what
// the index holds of it, then its conversation exchange by exchange, the one a search matched marked. The transcript
// is read streaming and each exchange printed as it closes, so a long session starts printing at once
// (bench/run.ts show); on a terminal through the pager (./../pager.ts), piped whole. `--json` prints the whole
// preview (core/library/preview-schema.ts SessionPreviewSchema).
import type { Command } from "commander";
import { renderPreviewExchange, renderPreviewFooter, renderPreviewHeader } from "../../core/library/preview-text.ts";
import { isSessionId } from "../../core/transcript/session-id.ts";
import { CtxError } from "../../errors.ts";
import { resolveSessionId } from "../../search/session-naming.ts";
import { openIndexForPreview, readSessionPreview } from "../../search/session-preview.ts";
import { sanitizeLogLine, sanitizeTerminalText } from "../../terminal-text.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { openPager, type Pager } from "../pager.ts";

interface ShowFlags {
  at?: string;
  json?: boolean;
  pager: boolean;
}

export function registerShowCommand(program: Command, ctx: CliContext): void {
  program
    .command("show")
    .description(COMMANDS.show.description)
    .argument("<session-id>", "the session: its id or a unique start of it (as `ctx search` shows it)")
    .option("--at <uuid>", "mark the exchange holding this message (a search's `fork at the match` uuid)")
    .option("--no-pager", "on a terminal, print without the pager ($PAGER, else less)")
    .option("--json", "print JSON for scripts")
    .action(async (idText: string, flags: ShowFlags) => {
      const at = flags.at ?? null;
      if (at !== null && !isSessionId(at)) {
        throw new CtxError("USAGE", `--at takes a message's uuid, not ${JSON.stringify(sanitizeLogLine(at))}`, {
          hint: "the uuid of a message, as a search's `fork at the match` command shows it",
        });
      }
      const index = openIndexForPreview(ctx.env);
      try {
        const sessionId = resolveSessionId(idText, { index });
        if (flags.json === true) {
          ctx.out(formatJson(await readSessionPreview(index, sessionId, { atUuid: at })));
          return;
        }
        const pager = ctx.stdoutIsTTY === true && flags.pager ? openPager(ctx.env) : null;
        await printPreview(ctx, index, sessionId, at, pager);
      } finally {
        index.close();
      }
    });
}

async function printPreview(
  ctx: CliContext,
  index: Parameters<typeof readSessionPreview>[0],
  sessionId: string,
  at: string | null,
  pager: Pager | null,
): Promise<void> {
  // Through the pager the text is sanitized here (ctx.out does it on the way to stdout).
  const write = async (text: string) => {
    if (pager === null) ctx.out(text);
    else await pager.write(sanitizeTerminalText(text));
  };
  // Ctrl-C in the pager reaches ctx too (one process group): the pager decides (less ignores it), and ctx keeps
  // feeding it rather than dying under it with the terminal still in the pager's mode.
  const release = pager === null ? undefined : ctx.onInterrupt?.(() => {});
  let exchanges = 0;
  let cwd: string | null = null;
  let pending: Promise<void> = Promise.resolve();
  try {
    const preview = await readSessionPreview(index, sessionId, {
      atUuid: at,
      keepExchanges: false,
      onHeader: (header) => {
        cwd = header.cwd;
        pending = pending.then(() => write(renderPreviewHeader(header, at)));
      },
      onExchange: (exchange) => {
        exchanges += 1;
        pending = pending.then(() => write(renderPreviewExchange(exchange, cwd)));
        return pending;
      },
      ...(pager === null ? {} : { stopped: () => pager.closed }),
    });
    await pending;
    await write(renderPreviewFooter(preview.header, preview.subagents, preview.read, exchanges));
  } finally {
    await pager?.end();
    release?.();
  }
}
