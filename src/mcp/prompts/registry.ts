// Every ctx prompt (slash commands in Claude Code), registered in one place.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "../deps.ts";
import { registerForkDetectPrompt } from "./fork-detect.ts";
import { registerSummariesPrompts } from "./summaries.ts";

export const PROMPT_REGISTRARS: ReadonlyArray<(server: McpServer, deps: ServerDeps) => void> = [
  registerForkDetectPrompt,
  registerSummariesPrompts,
];
