// `ctx hook <event>` without commander or the MCP SDK, for ./main.ts (every event) and the hook entries built on
// their own (./every-call-run.ts, ./session-start-run.ts, …; build/own-entries.ts): stdin, stdout and stderr are used
// through their file descriptors, never `process.stdin`/`stdout`/`stderr`, whose streams (a net.Socket for Claude
// Code's pipes) cost a hook process milliseconds (bench/hooks.bench.ts). The writes are synchronous: the reply has
// reached the pipe when the process exits. A reader that went away (EPIPE) is not the hook's problem.
import { writeSync } from "node:fs";
import { runHookProcess } from "../hooks/runtime/process.ts";
import type { HookTable } from "../hooks/runtime/types.ts";
import { sanitizeLogLine } from "../terminal-text.ts";

export async function runHookFastPath(event: string | undefined, table: HookTable): Promise<never> {
  try {
    const result = await runHookProcess(event, { stdin: 0, env: process.env, cliPath: process.argv[1] ?? "" }, table);
    writeAllSync(2, result.stderr);
    writeAllSync(1, result.stdout);
    // A stdin its writer never closed: the reply is out, but Node's exit would wait for the blocked read of it.
    if (result.abandonedStdinRead === true) process.kill(process.pid, "SIGKILL");
    process.exit(result.exitCode);
  } catch (thrown) {
    // Only a broken install gets here (runHookProcess itself never throws): one line, and the session goes on.
    writeAllSync(2, `${sanitizeLogLine(`ctx hook: ${thrown instanceof Error ? thrown.message : String(thrown)}`)}\n`);
    process.exit(0);
  }
}

function writeAllSync(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  try {
    while (offset < bytes.length) {
      try {
        offset += writeSync(fd, bytes, offset);
      } catch (error) {
        // A pipe left non-blocking by its reader: full for now, try again.
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      }
    }
  } catch {
    // EPIPE (the reader is gone) or a closed descriptor: nothing to tell anyone.
  }
}
