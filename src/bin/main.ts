// The program proper, loaded by ./ctx.ts once the Node version is known to be good. With the lean entry (./lean.ts)
// and the hook fast path they share (./hook-fast-path.ts), the only code that touches process.argv, process.exit and
// the real stdio. `ctx hook …` takes that fast path, which loads neither commander nor the MCP SDK, and only the
// event's own handler (hooks/runtime/table.ts).
import type { CliContext } from "../cli/command-io.ts";
import { explainSystemError, isCtxError } from "../errors.ts";
import { sanitizeLogLine, sanitizeTerminalText } from "../terminal-text.ts";
import { enableCtxCompileCache, isTerminal, runHookFastPath, writeAllSync } from "./hook-fast-path.ts";

enableCtxCompileCache(process.env);

async function main(argv: string[]): Promise<number> {
  // What commander would print for `ctx --version`, without loading it: scripts and prompts ask for it. `ctx version`
  // too, the word people type (docs/commands.md).
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V" || argv[0] === "version")) {
    const { CTX_VERSION } = await import("../version.ts");
    writeOut(`${CTX_VERSION}\n`);
    return 0;
  }
  // The status line runs after every assistant message: the same commander-free path as hooks.
  if (argv.length === 1 && argv[0] === "statusline") {
    const [{ runStatusLine }, { findProjectRoot }, { loadCachedConfig }] = await Promise.all([
      import("../cli/statusline.ts"),
      import("../config/paths.ts"),
      import("../store/config/config-cache.ts"),
    ]);
    await runStatusLine(process.stdin, (text) => writeOut(sanitizeTerminalText(text)), {
      env: process.env,
      now: () => new Date(),
      cwd: process.cwd(),
      findProjectRoot: (cwd) => findProjectRoot(cwd, process.env),
      loadConfig: (projectRoot) => loadCachedConfig({ projectRoot, env: process.env }),
    });
    return 0;
  }
  const [{ runCli }, { createLogger, parseLogLevel }] = await Promise.all([
    import("../cli/program.ts"),
    import("../log.ts"),
  ]);
  const io: CliContext = {
    cwd: process.cwd(),
    env: process.env,
    // Node builds the stdin stream on first read, and for a file or /dev/null that loads fs/promises and readline
    // (bench/run.ts cli): only a command that reads stdin pays for it.
    get stdin() {
      return process.stdin;
    },
    // The sinks: the program sanitizes and paints before it writes here (cli/output.ts writerOf).
    out: writeOut,
    err: writeErr,
    logger: createLogger({
      level: parseLogLevel(process.env.CTX_LOG_LEVEL, "warn"),
      write: (line) => writeErr(`${line}\n`),
    }),
    cliPath: process.argv[1] ?? "",
    stdoutIsTTY: isTerminal(1),
    stderrIsTTY: isTerminal(2),
    onInterrupt: (handler) => {
      // The first Ctrl-C asks the command to stop cleanly; a second one ends the process at once.
      let pressed = 0;
      const listener = () => {
        pressed += 1;
        if (pressed > 1) process.exit(130);
        handler();
      };
      process.on("SIGINT", listener);
      return () => process.off("SIGINT", listener);
    },
    setExitCode: () => {},
  };
  if (isTerminal(1) && isTerminal(0)) {
    Object.defineProperty(io, "terminal", {
      get: () => ({ input: process.stdin, output: process.stdout }),
      enumerable: true,
    });
  }
  return runCli(argv, io);
}

/**
 * ctx writes its output through the descriptors, synchronously (./hook-fast-path.ts writeAllSync): Node's stdout and
 * stderr streams cost a process milliseconds to build (a pipe's loads node:net: bench/run.ts cli). A reader that
 * goes away (`ctx search | head -1`) is not an error of ctx: stop writing, end quietly.
 */
function writeOut(text: string): void {
  if (!writeAllSync(1, text)) process.exit(0);
}

function writeErr(text: string): void {
  if (!writeAllSync(2, text)) process.exit(0);
}

/** The streams something built all the same (the terminal picker, `ctx serve`, a warning), for exitAfterFlush. */
const builtStreams: NodeJS.WriteStream[] = [];

/** Notes each of Node's stdout and stderr streams when it is built, and ends quietly when its reader goes away. */
function watchStdStreams(): void {
  for (const name of ["stdout", "stderr"] as const) {
    const descriptor = Object.getOwnPropertyDescriptor(process, name);
    const build = descriptor?.get;
    if (build === undefined || descriptor?.configurable !== true) continue;
    let stream: NodeJS.WriteStream | undefined;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: descriptor.enumerable === true,
      get() {
        if (stream === undefined) {
          stream = build.call(process) as NodeJS.WriteStream;
          stream.on("error", (error: NodeJS.ErrnoException) => {
            if (error.code === "EPIPE") process.exit(0);
            throw error;
          });
          builtStreams.push(stream);
        }
        return stream;
      },
    });
  }
}

/** Ends the process once everything written to a stream has reached it: a pipe to a slow reader takes 64 KiB at a
 *  time, and `process.exit` would drop the rest. A write's callback runs after every earlier write is flushed, so an
 *  empty write is the marker. */
async function exitAfterFlush(code: number): Promise<never> {
  await Promise.all(
    builtStreams.map(
      (stream) =>
        new Promise<void>((resolve) => (stream.writableLength === 0 ? resolve() : stream.write("", () => resolve()))),
    ),
  );
  process.exit(code);
}

const argv = process.argv.slice(2);
if (argv[0] === "hook" && !argv.some((arg) => arg === "--help" || arg === "-h")) {
  const { runHookProcess, loadHook } = await import("../hooks/runtime/run.ts");
  await runHookFastPath(argv[1], { runHookProcess, loadHook });
}
watchStdStreams();
main(argv).then(
  async (code) => {
    // `serve` keeps running on its own; every other command ends here.
    if (code >= 0) await exitAfterFlush(code);
  },
  async (thrown: unknown) => {
    // A full or read-only disk, a permission, a damaged index: the person's to fix, so no stack trace.
    const error = explainSystemError(thrown) ?? thrown;
    const message = error instanceof Error ? error.message : String(error);
    // The message may quote a path, a session id, a transcript's or the team server's text: sanitized like every
    // other output, and the message and the hint one line each (a newline in a quoted field cannot forge a line).
    const say = (text: string) => writeErr(sanitizeTerminalText(text));
    say(`ctx: ${sanitizeLogLine(message)}\n`);
    if (isCtxError(error) && error.hint !== undefined) say(`hint: ${sanitizeLogLine(error.hint)}\n`);
    else if (!isCtxError(error) && error instanceof Error && error.stack) say(`${error.stack}\n`);
    await exitAfterFlush(isCtxError(error) && error.code === "USAGE" ? 2 : 1);
  },
);
