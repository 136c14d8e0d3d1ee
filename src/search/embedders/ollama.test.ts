import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { createOllamaEmbedder } from "./ollama.ts";

type Handler = (body: { model: string; input: string[] }, response: ServerResponse) => void;

let server: Server | undefined;
const requests: Array<{ url: string; method: string; body: { model: string; input: string[] } }> = [];

/** A local stand-in for Ollama on 127.0.0.1 (port 0), recording each request body. */
async function startFakeOllama(handler: Handler): Promise<string> {
  requests.length = 0;
  const started = createServer((request: IncomingMessage, response: ServerResponse) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as { model: string; input: string[] };
      requests.push({ url: request.url ?? "", method: request.method ?? "", body });
      handler(body, response);
    });
  });
  server = started;
  await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const json = (response: ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
};

/** Vectors that depend on the text, not unit length (the provider must normalise). */
const fakeVector = (text: string) => [text.length, 2, text.charCodeAt(text.length - 1) % 7];

describe("ollama embedder", () => {
  it("posts {model, input} with the task prefixes to /api/embed and returns unit vectors in order", async () => {
    const url = await startFakeOllama((body, response) =>
      json(response, 200, { model: body.model, embeddings: body.input.map(fakeVector) }),
    );
    const embedder = createOllamaEmbedder({
      url: `${url}/`,
      model: "nomic-embed-text",
      batchSize: 2,
      timeoutMs: 5_000,
    });
    const vectors = await embedder.embedDocuments(["alpha", "beta", "gamma"]);
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ["POST", "/api/embed"],
      ["POST", "/api/embed"],
    ]);
    expect(requests.map((r) => r.body.input)).toEqual([
      ["search_document: alpha", "search_document: beta"],
      ["search_document: gamma"],
    ]);
    expect(requests[0]?.body.model).toBe("nomic-embed-text");
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    const raw = fakeVector("search_document: beta");
    expect(vectors[1]?.[0]).toBeCloseTo((raw[0] as number) / Math.hypot(...raw), 6);
    expect(embedder.dimensions).toBe(3);

    await embedder.embedQueries(["where"]);
    expect(requests.at(-1)?.body.input).toEqual(["search_query: where"]);
  });

  it("says the server is unreachable (connection refused) and how to start it", async () => {
    const url = await startFakeOllama(() => {});
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const embedder = createOllamaEmbedder({ url, model: "nomic-embed-text", batchSize: 8, timeoutMs: 5_000 });
    const error = await rejectedCtxError(embedder.embedQueries(["x"]));
    expect(error.code).toBe("EMBEDDER_UNAVAILABLE");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.hint).toContain("ollama serve");
  });

  it("turns a missing model into a pull hint and other HTTP errors into EMBEDDER_FAILED", async () => {
    const url = await startFakeOllama((body, response) =>
      body.model === "absent"
        ? json(response, 404, { error: 'model "absent" not found, try pulling it first' })
        : json(response, 500, { error: "out of memory" }),
    );
    const missing = await rejectedCtxError(
      createOllamaEmbedder({ url, model: "absent", batchSize: 8, timeoutMs: 5_000 }).embedQueries(["x"]),
    );
    expect(missing.code).toBe("EMBEDDER_UNAVAILABLE");
    expect(missing.hint).toContain("ollama pull absent");
    const failed = await rejectedCtxError(
      createOllamaEmbedder({ url, model: "present", batchSize: 8, timeoutMs: 5_000 }).embedQueries(["x"]),
    );
    expect(failed.code).toBe("EMBEDDER_FAILED");
    expect(failed.message).toContain("out of memory");
  });

  it("rejects answers of the wrong shape", async () => {
    const answers: unknown[] = [
      { embedding: [1, 2] },
      { embeddings: [[1, 0]] },
      {
        embeddings: [
          [1, 0],
          [1, 0, 0],
        ],
      },
      {
        embeddings: [
          [0, 0],
          [0, 0],
        ],
      },
    ];
    const url = await startFakeOllama((_body, response) => json(response, 200, answers.shift()));
    const embedder = createOllamaEmbedder({ url, model: "m", batchSize: 8, timeoutMs: 5_000 });
    const messages = [];
    for (let i = 0; i < 4; i++) {
      const error = await rejectedCtxError(embedder.embedDocuments(["a", "b"]));
      expect(error.code).toBe("EMBEDDER_FAILED");
      messages.push(error.message);
    }
    expect(messages[0]).toContain("no embeddings array");
    expect(messages[1]).toContain("1 embeddings for 2 texts");
    expect(messages[2]).toContain("3-dim vector, expected 2");
    expect(messages[3]).toContain("zero");
  });

  it("gives up after the timeout", async () => {
    const url = await startFakeOllama(() => {}); // never answers
    const embedder = createOllamaEmbedder({ url, model: "m", batchSize: 8, timeoutMs: 100 });
    const error = await rejectedCtxError(embedder.embedQueries(["x"]));
    expect(error.code).toBe("EMBEDDER_FAILED");
    expect(error.message).toContain("within 100 ms");
  });
});
