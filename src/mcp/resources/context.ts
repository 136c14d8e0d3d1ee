// ctx://context: the project's current saved context rendered in full, as ctx_restore {mode: "full"}
// returns it (secrets were redacted when it was saved).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDeps } from "../deps.ts";
import { renderRestore } from "../shared/restore-result.ts";

export const CONTEXT_RESOURCE_URI = "ctx://context";

export function registerContextResource(server: McpServer, deps: ServerDeps): void {
  server.registerResource(
    "context",
    CONTEXT_RESOURCE_URI,
    {
      title: "ctx saved context",
      description: "The project's current saved working context, in full (Markdown, secrets redacted).",
      mimeType: "text/markdown",
    },
    async (uri) => {
      const { text, report } = await renderRestore(deps, { kind: "current" }, { mode: "full" });
      const body = report.found ? text : "ctx: no context is saved for this project yet.";
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: body }] };
    },
  );
}
