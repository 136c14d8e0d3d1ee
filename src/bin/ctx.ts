// The entry point: the only file that touches process.argv, process.exit and the real stdio.
// `ctx hook …` takes a fast path that loads neither commander nor the MCP SDK (hook start-up budget).
import { mkdirSync } from "node:fs";
import { enableCompileCache } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { isCtxError } from "../errors.ts";

// V8's code cache for ctx's own modules, kept with ctx's other private files: a few milliseconds off
// every hook process (measured in bench/hooks.bench.ts). Folders are made 0700 first (Node would make
// them 0755). Failure to set it up is silent and harmless.
try {
  const cacheDir = join(process.env.CTX_HOME || join(homedir(), ".ctx"), "cache", "node-compile");
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  enableCompileCache?.(cacheDir);
} catch {
  // no cache: slower start, same behaviour
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "hook" && !argv.some((arg) => arg === "--help" || arg === "-h")) {
    const { runHookProcess } = await import("../hooks/process.ts");
    const result = await runHookProcess(argv[1], {
      stdin: process.stdin,
      env: process.env,
      cliPath: process.argv[1] ?? "",
    });
    if (result.stderr !== "") process.stderr.write(result.stderr);
    if (result.stdout !== "")
      await new Promise<void>((resolve) => process.stdout.write(result.stdout, () => resolve()));
    return result.exitCode;
  }
  // The status line runs after every assistant message: the same commander-free path as hooks.
  if (argv.length === 1 && argv[0] === "statusline") {
    const [{ runStatusLine }, { loadConfig }, { findProjectRoot }] = await Promise.all([
      import("../cli/statusline.ts"),
      import("../config/load.ts"),
      import("../config/paths.ts"),
    ]);
    await runStatusLine(process.stdin, (text) => process.stdout.write(text), {
      env: process.env,
      now: () => new Date(),
      cwd: process.cwd(),
      findProjectRoot: (cwd) => findProjectRoot(cwd, process.env),
      loadConfig: (projectRoot) => loadConfig({ projectRoot, env: process.env }),
    });
    return 0;
  }
  const { runCli } = await import("../cli/program.ts");
  const { createLogger, parseLogLevel } = await import("../log.ts");
  return runCli(argv, {
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    logger: createLogger({ level: parseLogLevel(process.env.CTX_LOG_LEVEL, "warn") }),
    cliPath: process.argv[1] ?? "",
    stderrIsTTY: process.stderr.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
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
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    // `serve` keeps running on its own; every other command ends here.
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`ctx: ${message}\n`);
    if (isCtxError(error) && error.hint !== undefined) process.stderr.write(`hint: ${error.hint}\n`);
    else if (!isCtxError(error) && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exit(isCtxError(error) && error.code === "USAGE" ? 2 : 1);
  },
);
