// Every ctx:// resource, registered in one place.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "../deps.ts";
import { registerContextResource } from "./context.ts";
import { registerHealthResource } from "./health.ts";
import { registerSnapshotsResources } from "./snapshots.ts";
import { registerStatusResource } from "./status.ts";

export const RESOURCE_REGISTRARS: ReadonlyArray<(server: McpServer, deps: ServerDeps) => void> = [
  registerStatusResource,
  registerContextResource,
  registerSnapshotsResources,
  registerHealthResource,
];
