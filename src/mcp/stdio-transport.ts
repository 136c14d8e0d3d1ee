// The MCP Transport over a pair of streams (stdin/stdout in production). Framing lives in
// ./json-rpc-framing.ts; this shell only moves bytes and reports the stream's end.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type JsonRpcErrorReply, parseLine, serializeMessage, takeLines } from "./json-rpc-framing.ts";

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private buffer = "";
  private closed = false;
  private readonly input: NodeJS.ReadableStream;
  private readonly output: NodeJS.WritableStream;

  constructor(input: NodeJS.ReadableStream, output: NodeJS.WritableStream) {
    this.input = input;
    this.output = output;
  }

  private readonly onData = (chunk: Buffer | string) => {
    const { lines, rest } = takeLines(this.buffer + chunk.toString());
    this.buffer = rest;
    for (const line of lines) {
      const framed = parseLine(line);
      if (framed === null) continue;
      if ("reply" in framed) {
        this.onerror?.(new Error(framed.reply.error.message));
        void this.write(framed.reply);
      } else {
        this.onmessage?.(framed.message);
      }
    }
  };

  private readonly onEnd = () => void this.close();
  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.input.setEncoding?.("utf8");
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: JSONRPCMessage | JsonRpcErrorReply): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(serializeMessage(message))) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onStreamError);
    this.onclose?.();
  }
}
