// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so the real Claude Code CLI can run whole
// turns offline. Requests of the main conversation consume the script in order; side requests (the CLI's own
// small-model calls) get a short generic reply. Every request is captured for assertions.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  buildAssistantMessage,
  encodeMessageEvents,
  encodeMessageJson,
  type MessagesRequestBody,
  type MockTurn,
  toolNames,
} from "./messages-api.ts";

/** A turn, or a function choosing the turn from the request it answers (e.g. to echo a tool result). */
export type MockTurnSpec = MockTurn | ((request: CapturedRequest) => MockTurn);

export type RequestKind = "main" | "side" | "count_tokens" | "probe" | "unknown";

export interface CapturedRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; undefined when the body was empty or not JSON. */
  body: MessagesRequestBody | undefined;
  kind: RequestKind;
  /** performance.now() when the request arrived (for timing what Claude Code does between requests). */
  receivedAt: number;
}

export interface MockAnthropicOptions {
  turns?: MockTurnSpec[];
  /**
   * Tells a side request (not part of the scripted conversation) from a main one. The default treats a
   * request as main when it offers tools, which helper calls (titles, quota checks) do not. Claude Code
   * 2.1.330 `-p` runs sent none; its `/compact` summary request does carry tools, so it is a main turn.
   */
  isSideRequest?: (body: MessagesRequestBody) => boolean;
  /** The reply to side requests; default "OK". */
  sideReplyText?: string;
  /** Called with one line per request, for debugging (e.g. `(line) => process.stderr.write(line)`). */
  log?: (line: string) => void;
}

export interface MockAnthropic {
  /** For ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: readonly CapturedRequest[];
  /** The requests that consumed the script (or found it empty), in order. */
  mainRequests(): CapturedRequest[];
  /** Appends turns to the script. */
  enqueue(...turns: MockTurnSpec[]): void;
  /** How many scripted turns are still unused. */
  pendingTurns(): number;
  /** Anything a test should not have caused: unknown endpoints, main requests past the end of the script. */
  readonly problems: readonly string[];
  close(): Promise<void>;
}

const SCRIPT_EXHAUSTED_TEXT = "(mock-anthropic: the script has no more turns)";

export function defaultIsSideRequest(body: MessagesRequestBody): boolean {
  return toolNames(body).length === 0;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): MessagesRequestBody | undefined {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as MessagesRequestBody;
  } catch {
    return undefined;
  }
}

function classify(
  method: string,
  path: string,
  body: MessagesRequestBody | undefined,
  isSide: MockAnthropicOptions["isSideRequest"],
): RequestKind {
  if (path === "/api/hello") return "probe";
  if (method === "POST" && path === "/v1/messages/count_tokens") return "count_tokens";
  if (method === "POST" && path === "/v1/messages" && body !== undefined) {
    return (isSide ?? defaultIsSideRequest)(body) ? "side" : "main";
  }
  return "unknown";
}

export async function startMockAnthropic(options: MockAnthropicOptions = {}): Promise<MockAnthropic> {
  const script: MockTurnSpec[] = [...(options.turns ?? [])];
  const requests: CapturedRequest[] = [];
  const problems: string[] = [];
  const log = options.log ?? (() => {});

  function reply(response: ServerResponse, captured: CapturedRequest, turn: MockTurn): void {
    const message = buildAssistantMessage(turn, captured.body?.model ?? "claude-mock");
    if (captured.body?.stream === true) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.end(encodeMessageEvents(message));
    } else {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(encodeMessageJson(message));
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = request.method ?? "GET";
    const body = parseJson(await readBody(request));
    const kind = classify(method, url.pathname, body, options.isSideRequest);
    const captured: CapturedRequest = {
      method,
      path: url.pathname,
      query: url.search,
      headers: request.headers,
      body,
      kind,
      receivedAt,
    };
    requests.push(captured);
    log(
      `mock-anthropic: ${method} ${url.pathname}${url.search} -> ${kind} (model ${body?.model ?? "-"}, ${toolNames(body ?? {}).length} tools, stream ${body?.stream === true})\n`,
    );

    switch (kind) {
      case "probe":
        response.writeHead(200, { "content-type": "application/json" });
        response.end(method === "HEAD" ? undefined : "{}");
        return;
      case "count_tokens":
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ input_tokens: 100 }));
        return;
      case "side":
        reply(response, captured, { text: options.sideReplyText ?? "OK" });
        return;
      case "main": {
        const next = script.shift();
        if (next === undefined) {
          problems.push(`main request #${requests.length} arrived after the script ran out`);
          reply(response, captured, { text: SCRIPT_EXHAUSTED_TEXT });
          return;
        }
        const turn = typeof next === "function" ? next(captured) : next;
        if (turn.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, turn.delayMs));
        reply(response, captured, turn);
        return;
      }
      default:
        problems.push(`unknown request ${method} ${url.pathname}${url.search}`);
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "mock: not found" } }));
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      problems.push(`handler failed: ${String(error)}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((request) => request.kind === "main"),
    enqueue: (...turns) => void script.push(...turns),
    pendingTurns: () => script.length,
    problems,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
