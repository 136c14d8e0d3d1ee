// The Messages API mock on its own, over real HTTP: event order, scripting, side requests, captured bodies.
import { afterEach, describe, expect, it } from "vitest";
import { messagesText, toolResults } from "./messages-api.ts";
import { type MockAnthropic, type MockAnthropicOptions, startMockAnthropic } from "./mock-anthropic.ts";

let mock: MockAnthropic | undefined;

afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function start(options: MockAnthropicOptions): Promise<MockAnthropic> {
  mock = await startMockAnthropic(options);
  return mock;
}

const MAIN = {
  model: "claude-test",
  max_tokens: 100,
  tools: [{ name: "Read" }],
  messages: [{ role: "user", content: "hi" }],
};

function post(server: MockAnthropic, body: unknown, path = "/v1/messages?beta=true"): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: "POST", body: JSON.stringify(body), headers: { "x-api-key": "k" } });
}

interface MessageJson {
  type: string;
  role: string;
  stop_reason: string;
  content: { type: string; text?: string }[];
}

async function postForMessage(server: MockAnthropic, body: unknown): Promise<MessageJson> {
  return (await (await post(server, body)).json()) as MessageJson;
}

/** Server-sent events as `{ event, data }` pairs. */
function parseEvents(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split("\n");
      return {
        event: eventLine?.replace("event: ", "") ?? "",
        data: JSON.parse(dataLine?.replace("data: ", "") ?? ""),
      };
    });
}

describe("startMockAnthropic", () => {
  it("streams a text + tool_use turn in the Messages API event order, with the turn's usage", async () => {
    const server = await start({
      turns: [
        {
          text: "Let me look.",
          toolUse: { id: "toolu_1", name: "mcp__ctx__ctx_status", input: { a: 1 } },
          usage: { input_tokens: 150_000 },
        },
      ],
    });
    const response = await post(server, { ...MAIN, stream: true });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = parseEvents(await response.text());
    expect(events.map((event) => event.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    for (const { event, data } of events) expect(data.type).toBe(event);
    expect(events[0]?.data.message).toMatchObject({ model: "claude-test", usage: { input_tokens: 150_000 } });
    expect(events[2]?.data.delta).toEqual({ type: "text_delta", text: "Let me look." });
    expect(events[4]?.data.content_block).toMatchObject({
      type: "tool_use",
      id: "toolu_1",
      name: "mcp__ctx__ctx_status",
    });
    const partial = (events[5]?.data.delta as { partial_json?: string } | undefined)?.partial_json ?? "";
    expect(JSON.parse(partial)).toEqual({ a: 1 });
    expect(events[7]?.data).toMatchObject({ delta: { stop_reason: "tool_use" }, usage: { output_tokens: 10 } });
  });

  it("answers a non-streaming request with one JSON message", async () => {
    const server = await start({ turns: [{ text: "done" }] });
    const body = await postForMessage(server, MAIN);
    expect(body).toMatchObject({ type: "message", role: "assistant", content: [{ type: "text", text: "done" }] });
    expect(body.stop_reason).toBe("end_turn");
  });

  it("side requests (no tools) get a generic reply and leave the script alone", async () => {
    const server = await start({ turns: [{ text: "scripted" }] });
    const side = await postForMessage(server, { model: "claude-haiku", max_tokens: 50, messages: [] });
    expect(side.content).toEqual([{ type: "text", text: "OK" }]);
    expect(server.pendingTurns()).toBe(1);
    const main = await postForMessage(server, MAIN);
    expect(main.content).toEqual([{ type: "text", text: "scripted" }]);
    expect(server.requests.map((request) => request.kind)).toEqual(["side", "main"]);
    expect(server.mainRequests()).toHaveLength(1);
  });

  it("lets a turn be computed from the request it answers", async () => {
    const server = await start({
      turns: [(request) => ({ text: `saw ${request.body?.messages?.length} message(s)` })],
    });
    const body = await postForMessage(server, MAIN);
    expect(body.content[0]?.text).toBe("saw 1 message(s)");
  });

  it("reports main requests past the script and unknown endpoints as problems", async () => {
    const server = await start({});
    expect((await fetch(`${server.url}/api/hello`, { method: "HEAD" })).status).toBe(200);
    expect(server.problems).toEqual([]);
    await post(server, MAIN);
    const unknown = await fetch(`${server.url}/v1/models`);
    expect(unknown.status).toBe(404);
    expect(server.problems).toHaveLength(2);
    expect(server.problems[1]).toContain("GET /v1/models");
  });

  it("captures headers and the parsed body, readable with the request helpers", async () => {
    const server = await start({ turns: [{ text: "ok" }] });
    const content = [
      { type: "tool_result", tool_use_id: "toolu_9", content: [{ type: "text", text: "status: fine" }] },
      { type: "text", text: "<system-reminder>ctx note</system-reminder>" },
    ];
    await post(server, { ...MAIN, messages: [{ role: "user", content }] });
    const [captured] = server.requests;
    expect(captured?.headers["x-api-key"]).toBe("k");
    expect(captured?.query).toBe("?beta=true");
    expect(toolResults(captured?.body ?? {})).toEqual([{ toolUseId: "toolu_9", isError: false, text: "status: fine" }]);
    expect(messagesText(captured?.body ?? {})).toContain("ctx note");
  });
});
