// What every CLI command receives instead of reaching for process globals, so commands are testable
// in-process with captured output.
import type { Logger } from "../log.ts";

/** Adds ctx's own colour to text that is already sanitized (./output.ts `writerOf`), so colour survives while no
 *  control from the data does. */
export type Paint = (safe: string) => string;

export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  /** The command's result: the only thing that goes to stdout. Inside the program (createProgram) it sanitizes the
   *  text (src/terminal-text.ts), then applies `paint`; the sink given to runCli receives the finished text. */
  out: (text: string, paint?: Paint) => void;
  /** Person-facing messages that are not the result (progress, warnings); sanitized and painted like `out`. */
  err: (text: string, paint?: Paint) => void;
  logger: Logger;
  /** This program's entry script (dist/ctx.js), for children ctx starts itself. */
  cliPath?: string;
  /** The terminal, when both stdin and stdout are one: interactive prompts (the search picker) only then. */
  terminal?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };
  /** Whether stdout is a terminal (colour and the search picker only there). */
  stdoutIsTTY?: boolean;
  /** Whether stderr is a terminal (progress bars only there). */
  stderrIsTTY?: boolean;
  /** Calls `handler` on Ctrl-C (SIGINT) until the returned function is called; a long command stops cleanly. */
  onInterrupt?: (handler: () => void) => () => void;
  /** Set by a command that wants a non-zero exit without throwing. */
  setExitCode: (code: number) => void;
}
