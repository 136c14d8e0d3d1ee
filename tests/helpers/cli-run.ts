// Runs the CLI in-process through runCli with captured stdout and stderr, for command tests.
import { Readable } from "node:stream";
import type { CliContext } from "../../src/cli/command-io.ts";
import { runCli } from "../../src/cli/program.ts";
import { silentLogger } from "../../src/log.ts";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliCaptured(
  argv: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const ctx: CliContext = {
    cwd: options.cwd,
    env: options.env,
    stdin: Readable.from([]),
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    logger: silentLogger,
    setExitCode: () => {},
  };
  const code = await runCli(argv, ctx);
  return { code, stdout, stderr };
}
