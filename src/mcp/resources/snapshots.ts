// ctx://snapshots (the list, as ctx_snapshot_list {verbose: true} gives it) and ctx://snapshots/{id}
// (one snapshot's listing and its state rendered as a summary), both JSON.
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { ContextStateSchema } from "../../core/context/extract.ts";
import { renderRestoreText } from "../../core/context/restore-text.ts";
import { listSnapshots, readSnapshot } from "../../store/snapshots/snapshots.ts";
import type { ServerDeps } from "../deps.ts";
import { maxCharsFor } from "../shared/context-tools.ts";
import { toSnapshotListing } from "../shared/snapshot-listing.ts";

export const SNAPSHOTS_RESOURCE_URI = "ctx://snapshots";
export const SNAPSHOT_RESOURCE_TEMPLATE = "ctx://snapshots/{id}";

const json = (uri: URL, value: unknown) => ({
  contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(value, null, 2) }],
});

export function registerSnapshotsResources(server: McpServer, deps: ServerDeps): void {
  server.registerResource(
    "snapshots",
    SNAPSHOTS_RESOURCE_URI,
    {
      title: "ctx snapshots",
      description: "The project's context snapshots, newest first, with state counts (JSON).",
      mimeType: "application/json",
    },
    async (uri) => {
      const entries = await listSnapshots(deps.projectRoot);
      return json(uri, { snapshots: entries.map((entry) => toSnapshotListing(entry, true)) });
    },
  );

  const template = new ResourceTemplate(SNAPSHOT_RESOURCE_TEMPLATE, {
    list: async () => ({
      resources: (await listSnapshots(deps.projectRoot)).map((entry) => ({
        uri: `${SNAPSHOTS_RESOURCE_URI}/${entry.id}`,
        name: `snapshot ${entry.id}`,
        description: `${entry.trigger} snapshot of session ${entry.sessionId}, ${entry.createdAt}`,
        mimeType: "application/json",
      })),
    }),
  });
  server.registerResource(
    "snapshot",
    template,
    {
      title: "ctx snapshot",
      description: "One snapshot: its listing and its saved state rendered as a summary (JSON).",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const id = String(variables.id);
      const found = await readSnapshot(deps.projectRoot, id, ContextStateSchema);
      if (found === null) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `no snapshot ${id} in this project; read ${SNAPSHOTS_RESOURCE_URI}`,
        );
      }
      const listing = toSnapshotListing(found.snapshot, true);
      const origin = `snapshot ${id} (${found.snapshot.trigger}, ${found.snapshot.createdAt})`;
      const summary = renderRestoreText(found.state, {
        mode: "summary",
        maxChars: maxCharsFor("summary", deps),
        origin,
      });
      return json(uri, { snapshot: listing, summary });
    },
  );
}
