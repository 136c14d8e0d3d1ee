// Every ctx tool, registered in one place (one tool per file beside this one).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "../deps.ts";
import { registerStatusTool } from "./status.ts";

export const TOOL_REGISTRARS: ReadonlyArray<(server: McpServer, deps: ServerDeps) => void> = [registerStatusTool];
