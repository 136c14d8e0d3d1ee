// The anthropic provider against a local fake Messages API (ANTHROPIC_BASE_URL), over real HTTP.

import { mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rejectedCtxError, thrownCtxError } from "../../tests/helpers/ctx-error.ts";
import { defaultConfig } from "../config/defaults.ts";
import { ledgerPath, readLedger } from "../store/summaries/ledger-store.ts";
import { ANTHROPIC_VERSION, createAnthropicClient } from "./anthropic.ts";
import { summarizeRequests } from "./summarizer.ts";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: { model: string; max_tokens: number; messages: Array<{ role: string; content: string }> };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function fakeMessagesApi(
  answer: (seen: Seen) => { status: number; body: unknown },
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => {
      raw += chunk;
    });
    request.on("end", () => {
      const entry: Seen = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: JSON.parse(raw),
      };
      seen.push(entry);
      const { status, body } = answer(entry);
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const summariesAnswer = (seen: Seen) => {
  const ids = [...(seen.body.messages[0]?.content ?? "").matchAll(/<message id="(m\d+)"/g)].map((m) => m[1] ?? "");
  const summaries = Object.fromEntries(ids.map((id) => [id, `API summary ${id}`]));
  return {
    status: 200,
    body: {
      id: "msg_test",
      type: "message",
      role: "assistant",
      model: seen.body.model,
      content: [{ type: "text", text: JSON.stringify({ summaries }) }],
      stop_reason: "end_turn",
      usage: { input_tokens: 321, output_tokens: 45 },
    },
  };
};

describe("the anthropic provider", () => {
  it("POSTs /v1/messages with the key, the API version, the model and the output allowance", async () => {
    const api = await fakeMessagesApi(summariesAnswer);
    const env = { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: `${api.url}/` };
    const client = createAnthropicClient({ model: "claude-haiku-4-5", timeoutMs: 5_000, env });
    const answer = await client.complete('<message id="m1" role="user">hi</message>', 256);
    expect(answer).toEqual({
      text: '{"summaries":{"m1":"API summary m1"}}',
      usage: { inputTokens: 321, outputTokens: 45 },
    });
    const [request] = api.seen;
    expect(request).toMatchObject({ method: "POST", url: "/v1/messages" });
    expect(request?.headers["x-api-key"]).toBe("test-key");
    expect(request?.headers["anthropic-version"]).toBe(ANTHROPIC_VERSION);
    expect(request?.body).toMatchObject({ model: "claude-haiku-4-5", max_tokens: 256, messages: [{ role: "user" }] });
  });

  it("without ANTHROPIC_API_KEY: PROVIDER_UNAVAILABLE naming the variable", () => {
    const error = thrownCtxError(() => createAnthropicClient({ model: "m", timeoutMs: 1_000, env: {} }));
    expect(error.code).toBe("PROVIDER_UNAVAILABLE");
    expect(error.message).toContain("ANTHROPIC_API_KEY");
  });

  it("an API error carries its status and message; a refused key says so", async () => {
    const api = await fakeMessagesApi(() => ({
      status: 401,
      body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
    }));
    const client = createAnthropicClient({
      model: "m",
      timeoutMs: 5_000,
      env: { ANTHROPIC_API_KEY: "bad", ANTHROPIC_BASE_URL: api.url },
    });
    const error = await rejectedCtxError(client.complete("x", 10));
    expect(error).toMatchObject({ code: "PROVIDER_FAILED" });
    expect(error.message).toContain("401: invalid x-api-key");
    expect(error.hint).toContain("ANTHROPIC_API_KEY was refused");
  });

  it("summarises through the API and books the real usage in the ledger", async () => {
    const api = await fakeMessagesApi(summariesAnswer);
    const home = mkdtempSync(join(tmpdir(), "ctx-anthropic-"));
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.url, CTX_HOME: home };
    const message = {
      uuid: "u1",
      role: "user" as const,
      kind: "prompt" as const,
      text: "Rename foo to bar",
      exactTokens: null,
      timestamp: null,
    };
    const outcome = await summarizeRequests([{ message, before: null, after: null }], {
      config: { ...defaultConfig().summaries, provider: "anthropic" },
      env,
      now: () => new Date("2026-11-22T08:00:00Z"),
      allowlist: [],
    });
    expect(outcome.summaries[0]).toMatchObject({
      text: "API summary m1",
      provider: "anthropic",
      model: "claude-haiku-4-5",
    });
    const ledger = await readLedger(ledgerPath(env));
    expect(ledger?.days["2026-11-22"]?.["anthropic/claude-haiku-4-5"]).toEqual({
      requests: 1,
      inputTokens: 321,
      outputTokens: 45,
      refused: 0,
    });
  });
});
