import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { expectSchemaRejection, testDeps, textOf } from "../../tests/helpers/mcp-project.ts";
import { CtxError } from "../errors.ts";
import { createLogger } from "../log.ts";
import { defineTool, registerTool, type ToolDefinition } from "./define-tool.ts";

const EchoOutputSchema = z.object({ said: z.string(), times: z.int() });

let calls: unknown[] = [];
const echoTool = defineTool({
  name: "ctx_echo",
  title: "ctx echo",
  description: "Says it again.",
  input: { words: z.string().check(z.minLength(1), z.describe("What to say.")), times: z.optional(z.int()) },
  output: EchoOutputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  handle: async (args) => {
    calls.push(args);
    if (args.words === "fail") {
      throw new CtxError("NOT_FOUND", "nothing to echo", { hint: "say something else" });
    }
    if (args.words === "boom") throw new Error("plain failure");
    // A result the output schema refuses: the SDK must not pass it on as a success.
    if (args.words === "wrong") return { text: "wrong", structured: { said: "wrong", times: 1.5 } };
    const times = args.times ?? 1;
    return { text: Array(times).fill(args.words).join(" "), structured: { said: args.words, times } };
  },
});

const refusingTool = defineTool({
  name: "ctx_refuse",
  title: "ctx refuse",
  description: "Always refuses.",
  output: z.object({}),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  failureLogLevel: "warn",
  handle: async (args) => {
    calls.push(args);
    throw new CtxError("USAGE", "refused", { hint: "pass force" });
  },
});

let client: Client | undefined;
let logged: string[] = [];
afterEach(async () => {
  await client?.close();
  client = undefined;
  calls = [];
  logged = [];
});

async function connect(tools: readonly ToolDefinition[]): Promise<Client> {
  const logger = createLogger({ level: "debug", write: (line) => logged.push(line) });
  const deps = testDeps("/repo", { logger });
  const server = new McpServer({ name: "test", version: "1.0.0" });
  for (const tool of tools) registerTool(server, deps, tool);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("defineTool + registerTool", () => {
  it("lists the tool with its title in the annotations and both JSON Schemas", async () => {
    const c = await connect([echoTool, refusingTool]);
    const { tools } = await c.listTools();
    const echo = tools.find((tool) => tool.name === "ctx_echo");
    expect(echo).toMatchObject({
      title: "ctx echo",
      description: "Says it again.",
      annotations: { title: "ctx echo", readOnlyHint: true, openWorldHint: false },
      inputSchema: {
        type: "object",
        properties: { words: { type: "string", minLength: 1, description: "What to say." } },
        required: ["words"],
      },
      outputSchema: { type: "object", required: ["said", "times"] },
    });
    expect(tools.find((tool) => tool.name === "ctx_refuse")?.inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("returns the text and the structuredContent the SDK checked against the output schema", async () => {
    const c = await connect([echoTool]);
    const result = await c.callTool({ name: "ctx_echo", arguments: { words: "hi", times: 2 } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("hi hi");
    expect(EchoOutputSchema.parse(result.structuredContent)).toEqual({ said: "hi", times: 2 });

    const wrong = await c.callTool({ name: "ctx_echo", arguments: { words: "wrong" } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/Output validation error.*times/);
  });

  it("turns a thrown CtxError into an isError result with its code and hint, logged as an error", async () => {
    const c = await connect([echoTool]);
    const result = await c.callTool({ name: "ctx_echo", arguments: { words: "fail" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toBe("ctx_echo failed [NOT_FOUND]: nothing to echo\nhint: say something else");
    expect(logged).toEqual([expect.stringMatching(/^ctx error: ctx_echo: .*nothing to echo/)]);

    const plain = await c.callTool({ name: "ctx_echo", arguments: { words: "boom" } });
    expect(textOf(plain)).toBe("ctx_echo failed: plain failure");
  });

  it("logs an expected refusal as a warning; a tool without input gets empty arguments", async () => {
    const c = await connect([refusingTool]);
    const result = await c.callTool({ name: "ctx_refuse", arguments: { ignored: true } });
    expect(textOf(result)).toBe("ctx_refuse failed [USAGE]: refused\nhint: pass force");
    expect(calls).toEqual([{}]);
    expect(logged).toEqual([expect.stringMatching(/^ctx warn: ctx_refuse:/)]);
  });

  it("rejects arguments the input schema refuses, with a readable message, before the handler runs", async () => {
    const c = await connect([echoTool]);
    await expectSchemaRejection(c, "ctx_echo", { words: "" }, "words");
    await expectSchemaRejection(c, "ctx_echo", { words: "hi", times: "twice" }, "times");
    const result = await c.callTool({ name: "ctx_echo", arguments: { times: 1 } });
    expect(textOf(result)).toBe(
      "MCP error -32602: Input validation error: Invalid arguments for tool ctx_echo: " +
        "Invalid input: expected string, received undefined at words",
    );
    expect(calls).toEqual([]);
  });
});
