// ctx_context_stats: how a session's context assembles within the token budget: messages and tokens per layer
// (aggregate, summarised, recent), the compression ratio, and the summaries stored. Missing summaries are
// made with the extractive provider (offline, fast); LLM summaries only come from ctx_summarize.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { formatContextStats } from "../../core/summaries/stats.ts";
import { contextStats } from "../../summaries/operations.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import {
  type ContextStatsOutput,
  ContextStatsOutputSchema,
  resolveSummariesToolSession,
  SessionArgument,
  summariesOpsDeps,
} from "../shared/summaries-tools.ts";

export const CONTEXT_STATS_TOOL_NAME = "ctx_context_stats";

export function registerContextStatsTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    CONTEXT_STATS_TOOL_NAME,
    {
      title: "ctx context stats",
      description:
        "Report how a session's conversation compresses into the summaries assembly: tokens and messages per layer " +
        "(oldest folded, middle summarised, recent verbatim), the compression ratio, the budget, and the last " +
        "reply's real context size. `preset: bridge` uses the chat bridge's policy (last 5 verbatim, 6-20 summarised).",
      inputSchema: {
        session: SessionArgument,
        preset: z
          .enum(["smart", "bridge"])
          .optional()
          .describe("Assembly layout (default: smart, the configured one)."),
      },
      outputSchema: ContextStatsOutputSchema.shape,
      annotations: { title: "ctx context stats", readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ session, preset }) => {
      try {
        const ref = await resolveSummariesToolSession(deps, session);
        const result = await contextStats(summariesOpsDeps(deps), ref, preset ?? "smart");
        const output: ContextStatsOutput = result.stats;
        return { content: [{ type: "text", text: formatContextStats(output) }], structuredContent: output };
      } catch (error) {
        deps.logger.error(`${CONTEXT_STATS_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(CONTEXT_STATS_TOOL_NAME, error);
      }
    },
  );
}
