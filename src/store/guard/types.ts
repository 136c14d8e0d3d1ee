// What the guard's tick takes and answers, shared by the guard, its actions and the tick after a tool call
// (a file of its own, so the lazily loaded actions never import the guard that loads them).
import type { Config } from "../../config/schema.ts";
import type { Logger } from "../../log.ts";

/** The project, its settings, the clock, a logger and the environment: the hook's and the MCP server's deps both fit. */
export interface GuardDeps {
  projectRoot: string;
  config: Config;
  now: () => Date;
  logger: Logger;
  /** For CLAUDE_CODE_DISABLE_1M_CONTEXT and the auto-compaction overrides Claude Code reads. */
  env: NodeJS.ProcessEnv;
}

/** What the guard says when it speaks: the note for Claude and, for the top two tiers, a line for the user. */
export interface GuardReply {
  additionalContext: string;
  systemMessage: string | null;
}
