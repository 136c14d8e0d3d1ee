// Every ctx tool, in the order clients list them (one tool per file beside this one).
import type { ToolDefinition } from "../define-tool.ts";
import { auditTool } from "./audit.ts";
import { budgetTool } from "./budget.ts";
import { checkpointTool } from "./checkpoint.ts";
import { clearTool } from "./clear.ts";
import { clearSummariesTool } from "./clear-summaries.ts";
import { contextStatsTool } from "./context-stats.ts";
import { diffTool } from "./diff.ts";
import { forkDetectTool } from "./fork-detect.ts";
import { guardTickTool } from "./guard-tick.ts";
import { healthTool } from "./health.ts";
import { indexTool } from "./index-tool.ts";
import { libraryTool } from "./library.ts";
import { memoryDeleteTool } from "./memory-delete.ts";
import { memoryListTool } from "./memory-list.ts";
import { memoryReadTool } from "./memory-read.ts";
import { memorySearchTool } from "./memory-search.ts";
import { memoryWriteTool } from "./memory-write.ts";
import { restoreTool } from "./restore.ts";
import { saveTool } from "./save.ts";
import { snapshotListTool } from "./snapshot-list.ts";
import { snapshotRestoreTool } from "./snapshot-restore.ts";
import { statusTool } from "./status.ts";
import { summarizeTool } from "./summarize.ts";

export const TOOLS: readonly ToolDefinition[] = [
  statusTool,
  saveTool,
  restoreTool,
  diffTool,
  checkpointTool,
  clearTool,
  snapshotListTool,
  snapshotRestoreTool,
  forkDetectTool,
  libraryTool,
  indexTool,
  budgetTool,
  memoryWriteTool,
  memoryReadTool,
  memoryListTool,
  memorySearchTool,
  memoryDeleteTool,
  summarizeTool,
  contextStatsTool,
  clearSummariesTool,
  healthTool,
  auditTool,
  guardTickTool,
];
