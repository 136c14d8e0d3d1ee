// A search through the MCP server is recorded in the fork log (docs/forks.md): the built binary's `ctx serve` with the
// SDK's own client, over an index of a fork made by Claude Code 2.1.330 (tests/fixtures/forks).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { readForkLog } from "../../src/store/library/fork-log-read.ts";
import { assertBuilt, CTX_BIN } from "./ctx-process.ts";

const SOURCE = "d2e2675e-9085-415a-b095-cefa3b4cb8f2";
const FORK = "41bc45fa-0233-4d74-bf70-2109cda90960";
let base: string;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  rmSync(base, { recursive: true, force: true });
});

describe("ctx_fork_detect and the fork log", () => {
  it("records the query and the sessions it offered, with their fork points, as an mcp search", async () => {
    assertBuilt();
    base = mkdtempSync(join(tmpdir(), "ctx-mcp-fork-log-"));
    const project = join(base, "repo");
    const folder = join(base, "home", ".claude", "projects", "-home-user-work-project");
    mkdirSync(join(project, ".ctx"), { recursive: true });
    mkdirSync(folder, { recursive: true });
    const fixtures = new URL("../fixtures/forks/", import.meta.url);
    copyFileSync(new URL("source.jsonl", fixtures), join(folder, `${SOURCE}.jsonl`));
    copyFileSync(new URL("fork.jsonl", fixtures), join(folder, `${FORK}.jsonl`));
    const env = { PATH: process.env.PATH ?? "", HOME: join(base, "home"), CTX_HOME: join(base, "ctx-home") };
    const indexed = spawnSync(process.execPath, [CTX_BIN, "index", "--quiet"], { env, cwd: project, encoding: "utf8" });
    expect(indexed.status, indexed.stderr).toBe(0);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CTX_BIN, "serve"],
      env: { ...env, CLAUDE_PROJECT_DIR: project },
      cwd: project,
      stderr: "pipe",
    });
    client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);
    const result = await client.callTool({ name: "ctx_fork_detect", arguments: { query: "write notes" } });
    expect(result.isError).toBeFalsy();
    const offered = (result.structuredContent as { results: Array<{ sessionId: string }> }).results;
    expect(offered.length).toBeGreaterThan(0);

    const log = await readForkLog(env);
    expect(log.skipped).toBe(0);
    expect(log.records).toHaveLength(1);
    const record = log.records[0];
    expect(record).toMatchObject({ kind: "offer", via: "mcp", query: "write notes" });
    if (record?.kind !== "offer") throw new Error("not an offer");
    expect(record.sessions.map((session) => session.sessionId)).toEqual(offered.map((r) => r.sessionId));
    expect(record.sessions.every((session) => session.point !== null)).toBe(true);
  });
});
