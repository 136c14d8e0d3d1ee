// Every ctx tool, registered in one place (one tool per file beside this one).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "../deps.ts";
import { registerCheckpointTool } from "./checkpoint.ts";
import { registerClearTool } from "./clear.ts";
import { registerDiffTool } from "./diff.ts";
import { registerHealthTool } from "./health.ts";
import { registerRestoreTool } from "./restore.ts";
import { registerSaveTool } from "./save.ts";
import { registerSnapshotListTool } from "./snapshot-list.ts";
import { registerSnapshotRestoreTool } from "./snapshot-restore.ts";
import { registerStatusTool } from "./status.ts";

export const TOOL_REGISTRARS: ReadonlyArray<(server: McpServer, deps: ServerDeps) => void> = [
  registerStatusTool,
  registerSaveTool,
  registerRestoreTool,
  registerDiffTool,
  registerCheckpointTool,
  registerClearTool,
  registerSnapshotListTool,
  registerSnapshotRestoreTool,
  registerHealthTool,
];
