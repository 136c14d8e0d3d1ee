// The built binary as Claude Code runs it: `ctx serve` over stdio with the SDK's own client.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StatusSchema } from "../../src/core/status/report.ts";
import { assertBuilt, CTX_BIN } from "./ctx-process.ts";

let project: string;
let env: Record<string, string>;
let client: Client | undefined;

beforeEach(() => {
  assertBuilt();
  const base = mkdtempSync(join(tmpdir(), "ctx-mcp-e2e-"));
  project = join(base, "repo");
  mkdirSync(join(project, ".ctx"), { recursive: true });
  env = {
    PATH: process.env.PATH ?? "",
    HOME: join(base, "home"),
    CTX_HOME: join(base, "ctx-home"),
    CLAUDE_PROJECT_DIR: project,
  };
});

afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe("ctx serve over stdio", () => {
  it("lists tools, calls ctx_status and reads ctx://status through a real client", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CTX_BIN, "serve"],
      env,
      cwd: project,
      stderr: "pipe",
    });
    client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("ctx_status");

    const result = await client.callTool({ name: "ctx_status", arguments: {} });
    expect(result.isError).toBeFalsy();
    const status = StatusSchema.parse(result.structuredContent);
    expect(status.project.root).toBe(project);
    expect(status.project.initialized).toBe(true);

    const resource = await client.readResource({ uri: "ctx://status" });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).project.root).toBe(project);
  });

  it("answers garbage with JSON-RPC errors, keeps serving, and writes only JSON-RPC to stdout", async () => {
    const child = spawn(process.execPath, [CTX_BIN, "serve"], { cwd: project, env, stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => stdout.push(d));
    child.stderr.resume();
    const send = (line: string) => child.stdin.write(`${line}\n`);

    send("this is not json");
    send('{"jsonrpc":"2.0","id":1,"method":');
    send(JSON.stringify({ id: 9, not: "json-rpc" }));
    send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "no/such/method" }));
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      }),
    );
    send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    send(
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "ctx_status", arguments: {} } }),
    );

    const lines = await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; stdout so far: ${Buffer.concat(stdout)}`)), 15_000);
      child.stdout.on("data", () => {
        const text = Buffer.concat(stdout).toString("utf8");
        if (/"id":4/.test(text)) {
          clearTimeout(timer);
          resolve(text.trimEnd().split("\n"));
        }
      });
    });
    child.stdin.end();
    await new Promise((resolve) => child.on("close", resolve));

    const messages = lines.map(
      (line) => JSON.parse(line) as { jsonrpc: string; id?: number | null; error?: { code: number }; result?: unknown },
    );
    for (const message of messages) expect(message.jsonrpc).toBe("2.0");
    const errors = messages.filter((m) => m.error !== undefined);
    expect(errors.some((m) => m.error?.code === -32700)).toBe(true); // parse error for the garbage
    expect(messages.find((m) => m.id === 9)?.error?.code).toBe(-32600); // invalid request
    expect(messages.find((m) => m.id === 2)?.error?.code).toBe(-32601); // method not found
    expect(messages.find((m) => m.id === 3)?.result).toMatchObject({ serverInfo: { name: "ctx" } });
    expect(messages.find((m) => m.id === 4)?.result).toMatchObject({
      structuredContent: { project: { root: project } },
    });
  });

  it("answers every request already received when stdin ends right after them (`ctx serve < requests`)", async () => {
    const requests = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "ctx://status" } },
      ...[3, 4, 5, 6, 7, 8].map((id) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "ctx_status", arguments: {} },
      })),
    ];
    const file = join(project, "requests.jsonl");
    writeFileSync(file, `${requests.map((request) => JSON.stringify(request)).join("\n")}\n`);
    const input = openSync(file, "r");
    const child = spawn(process.execPath, [CTX_BIN, "serve"], { cwd: project, env, stdio: [input, "pipe", "ignore"] });
    closeSync(input);
    const stdout: Buffer[] = [];
    child.stdout?.on("data", (d: Buffer) => stdout.push(d));
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    const ids = Buffer.concat(stdout)
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids.sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("exits when the client closes stdin", async () => {
    const child = spawn(process.execPath, [CTX_BIN, "serve"], {
      cwd: project,
      env,
      stdio: ["pipe", "ignore", "ignore"],
    });
    child.stdin.end();
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
  });
});
