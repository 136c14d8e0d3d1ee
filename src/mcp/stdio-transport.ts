// The MCP Transport over a pair of streams (stdin/stdout in production). Framing lives in
// ./json-rpc-framing.ts; this shell moves bytes and reports the stream's end, but only once every
// request received has been answered (a client may send requests and close its end at once), and
// never later than DRAIN_LIMIT_MS, so a stuck handler cannot keep an orphaned server alive.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type JsonRpcErrorReply, parseLine, serializeMessage, takeLines } from "./json-rpc-framing.ts";

const DRAIN_LIMIT_MS = 10_000;

type RequestId = string | number;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private buffer = "";
  private closed = false;
  private ending = false;
  private readonly pending = new Set<RequestId>();
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
        const message = framed.message;
        if ("method" in message && "id" in message) this.pending.add(message.id);
        this.onmessage?.(message);
      }
    }
  };

  private readonly onEnd = () => {
    this.ending = true;
    if (this.pending.size === 0) {
      void this.close();
      return;
    }
    setTimeout(() => void this.close(), DRAIN_LIMIT_MS).unref();
  };
  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.input.setEncoding?.("utf8");
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
    if (!("method" in message) && "id" in message && message.id !== undefined) {
      this.pending.delete(message.id);
      if (this.ending && this.pending.size === 0) await this.close();
    }
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
