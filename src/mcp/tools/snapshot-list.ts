// ctx_snapshot_list: the project's snapshots (taken before each compaction, or by hand), newest first.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { listSnapshots } from "../../store/snapshots/snapshots.ts";
import type { ServerDeps } from "../deps.ts";
import { toolErrorResult } from "../result.ts";
import { formatSnapshotLine, SnapshotListingSchema, toSnapshotListing } from "../shared/snapshot-listing.ts";

export const SNAPSHOT_LIST_TOOL_NAME = "ctx_snapshot_list";

export const SnapshotListOutputSchema = z.object({ snapshots: z.array(SnapshotListingSchema) });

export function registerSnapshotListTool(server: McpServer, deps: ServerDeps): void {
  server.registerTool(
    SNAPSHOT_LIST_TOOL_NAME,
    {
      title: "ctx snapshot list",
      description:
        "List this project's context snapshots, newest first: id, trigger (auto = before a compaction, manual, " +
        "save, checkpoint), time, session, size and whether it is pinned (pinned ones are never pruned). " +
        "verbose adds what each saved state holds and the size of the transcript kept with it. Read one with " +
        "ctx_snapshot_restore {id}.",
      inputSchema: {
        verbose: z.boolean().optional().describe("Add state counts and transcript size for each snapshot."),
      },
      outputSchema: SnapshotListOutputSchema.shape,
      annotations: { title: "ctx snapshot list", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ verbose }) => {
      try {
        const snapshots = (await listSnapshots(deps.projectRoot)).map((entry) =>
          toSnapshotListing(entry, verbose === true),
        );
        const text =
          snapshots.length === 0
            ? "ctx: no snapshots in this project yet (one is taken before each compaction)."
            : [`${snapshots.length} snapshot(s), newest first:`, ...snapshots.map(formatSnapshotLine)].join("\n");
        return { content: [{ type: "text", text }], structuredContent: { snapshots } };
      } catch (error) {
        deps.logger.error(`${SNAPSHOT_LIST_TOOL_NAME}: ${String(error)}`);
        return toolErrorResult(SNAPSHOT_LIST_TOOL_NAME, error);
      }
    },
  );
}
