// The stdio entry of `ctx serve`: production deps, the SDK's stdio transport, and a promise that
// settles when the client goes away. stdout carries JSON-RPC only; logs go to stderr.
import { defaultConfig } from "../config/defaults.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { describeError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { runForkDetect } from "../search/fork-detect.ts";
import { memoryDirFor } from "../store/memory/memory-store.ts";
import { collectProjectStatus } from "../store/status/project-status.ts";
import { KeptTeamConnection } from "../team/kept-connection.ts";
import { teamCandidatesPort } from "../team/search-port.ts";
import { startBackgroundArchive } from "./background-archive.ts";
import { BackgroundGuard } from "./background-guard.ts";
import { startBackgroundIndex } from "./background-index.ts";
import { createServer } from "./server.ts";
import { LineTransport } from "./stdio-transport.ts";

export async function serveStdio(options: {
  version: string;
  projectRoot: string;
  logger: Logger;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Default: process.env (CLAUDE_CODE_SESSION_ID, CTX_* settings). */
  env?: NodeJS.ProcessEnv;
  /** Watch transcripts and re-index in child processes (production `ctx serve` only; config index.watch). */
  background?: { cliPath: string; execPath: string };
}): Promise<void> {
  const env = options.env ?? process.env;
  const sessionId = env.CLAUDE_CODE_SESSION_ID;
  const config = loadServerConfig(options.projectRoot, env, options.logger);
  const teamConnection = new KeptTeamConnection();
  const teamCandidates = teamCandidatesPort(config, env, teamConnection);
  const guardTicks = new BackgroundGuard();
  const server = createServer({
    version: options.version,
    projectRoot: options.projectRoot,
    logger: options.logger,
    config,
    memoryDir: memoryDirFor(options.projectRoot, env, config),
    now: () => new Date(),
    env,
    ...(sessionId === undefined || sessionId === "" ? {} : { sessionId }),
    collectStatus: (root, recent) => collectProjectStatus(root, options.version, recent),
    forkDetect: (request) =>
      runForkDetect(request, {
        config,
        env,
        projectRoot: options.projectRoot,
        now: () => Date.now(),
        teamCandidates,
        recordOffer: { via: "mcp", warn: (message) => options.logger.warn(message) },
        ...(sessionId === undefined || sessionId === "" ? {} : { currentSessionId: sessionId }),
      }),
    guardTicks,
    ...(options.background === undefined ? {} : { cli: options.background }),
  });
  const transport = new LineTransport(options.stdin, options.stdout);
  transport.onerror = (error) => options.logger.warn(`stdio: ${error.message}`);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  options.logger.info(`serving project ${options.projectRoot} over stdio`);
  const backgroundDeps = options.background
    ? { config, env, logger: options.logger, projectRoot: options.projectRoot, ...options.background }
    : null;
  const background = backgroundDeps === null ? null : startBackgroundIndex(backgroundDeps);
  const archive = backgroundDeps === null ? null : startBackgroundArchive(backgroundDeps);
  await closed;
  // The guard's measurements still waiting for their reply's line: finished (each is bounded), not dropped.
  await guardTicks.settle();
  archive?.stop();
  await background?.close();
  await server.close().catch(() => {});
  await teamConnection.close();
}

/** An invalid config must not keep the server from starting: Claude Code would only show "failed". */
function loadServerConfig(projectRoot: string, env: NodeJS.ProcessEnv, logger: Logger): Config {
  try {
    return loadConfig({ projectRoot, env });
  } catch (error) {
    logger.warn(`config: ${describeError(error)}; using the defaults (ctx doctor shows the config files)`);
    return defaultConfig();
  }
}
