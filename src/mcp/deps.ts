// What the MCP server needs from the outside world; production values are built in ./stdio.ts,
// tests pass their own (temp project, fixed clock, failing collectors).
import type { Config } from "../config/schema.ts";
import type { Status } from "../core/status/report.ts";
import type { Logger } from "../log.ts";
import type { ForkDetectRequest, ForkDetectResult } from "../search/fork-detect.ts";
import type { BackgroundGuard } from "./background-guard.ts";

export interface ServerDeps {
  version: string;
  projectRoot: string;
  logger: Logger;
  config: Config;
  now: () => Date;
  /** The Claude Code session that spawned the server (CLAUDE_CODE_SESSION_ID); unset outside Claude Code. */
  sessionId?: string;
  /** The auto-memory folder (Claude Code's own for the project unless configured); see store/memory/memory-store.ts. */
  memoryDir?: string;
  /** The environment for summary providers and the ledger (CTX_HOME, ANTHROPIC_API_KEY, PATH); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** `recent`: how many recent sessions to list (default 10). */
  collectStatus: (projectRoot: string, recent?: number) => Promise<Status>;
  /** Searches the session index (catching it up first); see src/search/fork-detect.ts. */
  forkDetect: (request: ForkDetectRequest) => Promise<ForkDetectResult>;
  /** ctx_guard_tick's measurements after its answer (./background-guard.ts): one per server, settled before it exits. */
  guardTicks: BackgroundGuard;
  /** The ctx CLI the server was started from, for the children it starts (ctx_index's rebuild); absent in tests. */
  cli?: { cliPath: string; execPath: string };
}
