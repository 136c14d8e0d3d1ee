// Every ctx tool, registered in one place (one tool per file beside this one).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "../deps.ts";
import { registerBudgetTool } from "./budget.ts";
import { registerCheckpointTool } from "./checkpoint.ts";
import { registerClearTool } from "./clear.ts";
import { registerContextStatsTool } from "./context-stats.ts";
import { registerDiffTool } from "./diff.ts";
import { registerForkDetectTool } from "./fork-detect.ts";
import { registerHealthTool } from "./health.ts";
import { registerMemoryDeleteTool } from "./memory-delete.ts";
import { registerMemoryListTool } from "./memory-list.ts";
import { registerMemoryReadTool } from "./memory-read.ts";
import { registerMemorySearchTool } from "./memory-search.ts";
import { registerMemoryWriteTool } from "./memory-write.ts";
import { registerRestoreTool } from "./restore.ts";
import { registerSaveTool } from "./save.ts";
import { registerSnapshotListTool } from "./snapshot-list.ts";
import { registerSnapshotRestoreTool } from "./snapshot-restore.ts";
import { registerStatusTool } from "./status.ts";
import { registerSummarizeTool } from "./summarize.ts";

export const TOOL_REGISTRARS: ReadonlyArray<(server: McpServer, deps: ServerDeps) => void> = [
  registerStatusTool,
  registerSaveTool,
  registerRestoreTool,
  registerDiffTool,
  registerCheckpointTool,
  registerClearTool,
  registerSnapshotListTool,
  registerSnapshotRestoreTool,
  registerForkDetectTool,
  registerBudgetTool,
  registerMemoryWriteTool,
  registerMemoryReadTool,
  registerMemoryListTool,
  registerMemorySearchTool,
  registerMemoryDeleteTool,
  registerSummarizeTool,
  registerContextStatsTool,
  registerHealthTool,
];
