// What every CLI command receives instead of reaching for process globals, so commands are testable
// in-process with captured output.
import type { Logger } from "../log.ts";

export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  /** The command's result: the only thing that goes to stdout. */
  out: (text: string) => void;
  /** Person-facing messages that are not the result (progress, warnings). */
  err: (text: string) => void;
  logger: Logger;
  /** This program's entry script (dist/ctx.js), for children ctx starts itself. */
  cliPath?: string;
  /** Whether stderr is a terminal (progress bars only there). */
  stderrIsTTY?: boolean;
  /** Whether stdout is a terminal (emphasis in results only there). */
  stdoutIsTTY?: boolean;
  /** Calls `handler` on Ctrl-C (SIGINT) until the returned function is called; a long command stops cleanly. */
  onInterrupt?: (handler: () => void) => () => void;
  /** Set by a command that wants a non-zero exit without throwing. */
  setExitCode: (code: number) => void;
}
