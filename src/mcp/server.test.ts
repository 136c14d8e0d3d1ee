import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../config/defaults.ts";
import type { SessionsFile } from "../core/sessions/seen.ts";
import { buildStatus, type Status, StatusSchema } from "../core/status/report.ts";
import { CtxError } from "../errors.ts";
import { silentLogger } from "../log.ts";
import { BackgroundGuard } from "./background-guard.ts";
import type { ServerDeps } from "./deps.ts";
import { createServer, SERVER_INSTRUCTIONS } from "./server.ts";

const sessionsFile: SessionsFile = {
  sessions: Array.from({ length: 18 }, (_, i) => ({
    sessionId: `s${i}`,
    transcriptPath: `/t/s${i}.jsonl`,
    cwd: "/repo",
    source: "startup",
    model: null,
    startedAt: "2026-11-01T10:00:00.000Z",
    endedAt: null,
    endReason: null,
    starts: 1,
    lastSeenAt: "2026-11-01T10:00:00.000Z",
  })),
};

const statusOf = (recent?: number): Status =>
  buildStatus({
    version: "9.9.9",
    root: "/repo",
    ctxDir: "/repo/.ctx",
    initialized: true,
    sessions: sessionsFile,
    warnings: [],
    ...(recent === undefined ? {} : { recent }),
  });

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(overrides: Partial<ServerDeps> = {}): Promise<Client> {
  const server = createServer({
    version: "9.9.9",
    projectRoot: "/repo",
    logger: silentLogger,
    config: defaultConfig(),
    now: () => new Date("2026-11-22T11:00:00.000Z"),
    collectStatus: async (_root, recent) => statusOf(recent),
    forkDetect: async () => {
      throw new Error("not used here");
    },
    guardTicks: new BackgroundGuard(),
    ...overrides,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("ctx MCP server", () => {
  it("introduces itself with instructions under Claude Code's 2 KB limit", async () => {
    const c = await connect();
    expect(c.getServerVersion()).toMatchObject({ name: "ctx", version: "9.9.9" });
    expect(c.getInstructions()).toBe(SERVER_INSTRUCTIONS);
    expect(Buffer.byteLength(SERVER_INSTRUCTIONS, "utf8")).toBeLessThan(2048);
  });

  it("names in its instructions only tools it has, and leaves room under the 2 KB for new relationships", async () => {
    // The tool list is the catalogue: the instructions name tools only to say when to call which, so a new tool
    // needs no line in them, but a renamed or removed one must not linger there.
    const { tools } = await (await connect()).listTools();
    const named = SERVER_INSTRUCTIONS.match(/\bctx_[a-z_]*[a-z]/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(tools.map((t) => t.name)).toContain(name);
    expect(Buffer.byteLength(SERVER_INSTRUCTIONS, "utf8")).toBeLessThanOrEqual(1200);
  });

  it("lists ctx_status with input and output schemas and read-only annotations", async () => {
    const c = await connect();
    const { tools } = await c.listTools();
    const status = tools.find((t) => t.name === "ctx_status");
    expect(status?.inputSchema.properties).toHaveProperty("recent");
    expect(status?.outputSchema?.properties).toHaveProperty("sessions");
    expect(status?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    for (const tool of tools) expect(tool.name).toMatch(/^ctx_[a-z]+(_[a-z]+)*$/);
    for (const tool of tools) expect(Buffer.byteLength(tool.description ?? "")).toBeLessThan(2048);
  });

  it("lists every context tool, each named ctx_<verb>[_<noun>] with an output schema and honest annotations", async () => {
    const c = await connect();
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "ctx_audit",
      "ctx_budget",
      "ctx_checkpoint",
      "ctx_clear",
      "ctx_clear_summaries",
      "ctx_context_stats",
      "ctx_diff",
      "ctx_fork_detect",
      "ctx_guard_tick",
      "ctx_health",
      "ctx_index",
      "ctx_library",
      "ctx_memory_delete",
      "ctx_memory_list",
      "ctx_memory_read",
      "ctx_memory_search",
      "ctx_memory_write",
      "ctx_restore",
      "ctx_save",
      "ctx_snapshot_list",
      "ctx_snapshot_restore",
      "ctx_status",
      "ctx_summarize",
    ]);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^ctx_[a-z]+(_[a-z]+)*$/);
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations?.openWorldHint).toBe(false);
    }
    const annotations = (name: string) => tools.find((t) => t.name === name)?.annotations;
    for (const name of [
      "ctx_status",
      "ctx_restore",
      "ctx_diff",
      "ctx_snapshot_list",
      "ctx_snapshot_restore",
      "ctx_fork_detect",
      "ctx_health",
      "ctx_audit",
    ]) {
      expect(annotations(name)?.readOnlyHint).toBe(true);
    }
    for (const name of ["ctx_save", "ctx_checkpoint", "ctx_clear", "ctx_guard_tick", "ctx_library"])
      expect(annotations(name)?.readOnlyHint).toBe(false);
    expect(annotations("ctx_clear")?.destructiveHint).toBe(true);
    // Its reindex op empties the index before building it again.
    expect(annotations("ctx_index")?.destructiveHint).toBe(true);
    expect(annotations("ctx_save")?.destructiveHint).toBe(false);
  });

  it("ctx_status returns text and structuredContent matching the output schema", async () => {
    const c = await connect();
    const result = await c.callTool({ name: "ctx_status", arguments: { recent: 3 } });
    expect(result.isError).toBeFalsy();
    const structured = StatusSchema.parse(result.structuredContent);
    expect(structured.project.root).toBe("/repo");
    expect(structured.sessions.count).toBe(18);
    expect(structured.sessions.recent).toHaveLength(3);
    const text = (result.content as Array<{ type: string; text: string }>)[0]?.text ?? "";
    expect(text).toContain("project: /repo");
    expect(text).toContain("sessions seen: 18");
    expect(text.match(/^ {2}s\d+/gm)).toHaveLength(3);

    const many = await c.callTool({ name: "ctx_status", arguments: { recent: 15 } });
    expect(StatusSchema.parse(many.structuredContent).sessions.recent).toHaveLength(15);
    const byDefault = await c.callTool({ name: "ctx_status", arguments: {} });
    expect(StatusSchema.parse(byDefault.structuredContent).sessions.recent).toHaveLength(10);
  });

  it("a failure inside the tool is an isError result with the hint, not a protocol error", async () => {
    const c = await connect({
      collectStatus: async () => {
        throw new CtxError("STATE_CORRUPT", "/repo/.ctx/sessions.ctx: checksum mismatch", { hint: "run `ctx doctor`" });
      },
    });
    const result = await c.callTool({ name: "ctx_status", arguments: {} });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(text).toContain("STATE_CORRUPT");
    expect(text).toContain("checksum mismatch");
    expect(text).toContain("hint: run `ctx doctor`");
  });

  it("rejects invalid arguments through the input schema", async () => {
    let called = false;
    const guarded = await connect({
      collectStatus: async () => {
        called = true;
        return statusOf();
      },
    });
    const result = await guarded.callTool({ name: "ctx_status", arguments: { recent: "many" } }).catch((e: Error) => e);
    const message = result instanceof Error ? result.message : JSON.stringify(result);
    expect(message).toMatch(/recent/);
    expect(message).toMatch(/invalid|validation/i);
    if (!(result instanceof Error)) expect(result.isError).toBe(true);
    expect(called).toBe(false);
  });

  it("serves ctx://status as JSON", async () => {
    const c = await connect();
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toContain("ctx://status");
    const read = await c.readResource({ uri: "ctx://status" });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe("application/json");
    expect(StatusSchema.parse(JSON.parse(content.text)).version).toBe("9.9.9");
  });
});

describe("fork-detect prompt", () => {
  it("is listed and carries the request into the steps", async () => {
    const c = await connect();
    const { prompts } = await c.listPrompts();
    expect(prompts.map((p) => p.name)).toContain("fork-detect");
    const got = await c.getPrompt({ name: "fork-detect", arguments: { request: "fix the login test" } });
    const first = got.messages[0];
    expect(first?.role).toBe("user");
    const text = first?.content.type === "text" ? first.content.text : "";
    expect(text).toContain("What I want to work on: fix the login test");
    expect(text).toContain("mcp__ctx__ctx_fork_detect");
    expect(text).toContain("AskUserQuestion");
    expect(text).toContain("None - start fresh");
  });

  it("asks what to work on when the request is empty", async () => {
    const c = await connect();
    const got = await c.getPrompt({ name: "fork-detect", arguments: {} });
    const text = got.messages[0]?.content.type === "text" ? got.messages[0].content.text : "";
    expect(text).toContain("If that is empty, ask me");
  });
});
