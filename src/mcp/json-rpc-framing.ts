// Newline-delimited JSON-RPC framing for stdio, pure. Unlike the SDK's own stdio transport, which
// drops a line it cannot parse, a bad line gets the JSON-RPC error the spec asks for (-32700 parse
// error, -32600 invalid request), so a confused client learns what went wrong.
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export interface JsonRpcErrorReply {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

export type FramedLine = { message: JSONRPCMessage } | { reply: JsonRpcErrorReply } | null;

/** Splits off complete lines; returns them and the unfinished rest. */
export function takeLines(buffer: string): { lines: string[]; rest: string } {
  const parts = buffer.split("\n");
  const rest = parts.pop() ?? "";
  return { lines: parts.map((line) => line.replace(/\r$/, "")), rest };
}

/** One received line: a message to handle, an error reply to send, or null for a blank line. */
export function parseLine(line: string): FramedLine {
  if (line.trim() === "") return null;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return { reply: errorReply(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(raw);
  if (parsed.success) return { message: parsed.data };
  const id = typeof raw === "object" && raw !== null && "id" in raw ? (raw as { id: unknown }).id : null;
  const replyId = typeof id === "string" || typeof id === "number" ? id : null;
  return { reply: errorReply(replyId, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message") };
}

export function serializeMessage(message: JSONRPCMessage | JsonRpcErrorReply): string {
  return `${JSON.stringify(message)}\n`;
}

function errorReply(id: string | number | null, code: number, message: string): JsonRpcErrorReply {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
