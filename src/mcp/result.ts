// Turns a thrown error into an `isError` tool result the model can act on (STYLE.md: tool failures are
// results, not protocol faults), with the CtxError hint when there is one.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describeError, isCtxError } from "../errors.ts";

export function toolErrorResult(toolName: string, error: unknown): CallToolResult {
  const hint = isCtxError(error) && error.hint !== undefined ? `\nhint: ${error.hint}` : "";
  const code = isCtxError(error) ? ` [${error.code}]` : "";
  return {
    isError: true,
    content: [{ type: "text", text: `${toolName} failed${code}: ${describeError(error)}${hint}` }],
  };
}
