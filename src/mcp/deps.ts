// What the MCP server needs from the outside world; production values are built in ./stdio.ts,
// tests pass their own (temp project, fixed clock, failing collectors).
import type { Status } from "../core/status.ts";
import type { Logger } from "../log.ts";

export interface ServerDeps {
  version: string;
  projectRoot: string;
  logger: Logger;
  /** `recent`: how many recent sessions to list (default 10). */
  collectStatus: (projectRoot: string, recent?: number) => Promise<Status>;
}
