// ctx_index through a real MCP client: stats on a real index (the fixture transcripts and the real Claude Code's
// forks), reindex as the built `ctx reindex` in the background, and its refusals.
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { layOutClaudeDir } from "../../../tests/helpers/claude-projects.ts";
import {
  closeClients,
  connectClient,
  expectSchemaRejection,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { IndexStatsReportSchema, type RebuildRecord } from "../../core/search/index-stats-schema.ts";
import { readRebuildRecord } from "../../search/sync/rebuild-record.ts";
import { syncIndex } from "../../search/sync/sync-index.ts";
import { IndexToolOutputSchema } from "./index-tool.ts";

const CTX_BIN = resolve(import.meta.dirname, "../../../dist/ctx.js");
const FORKS = join(import.meta.dirname, "../../../tests/fixtures/claude-forks/projects");

afterEach(closeClients);

function setUp() {
  const root = mkdtempSync(join(tmpdir(), "ctx-index-tool-"));
  const claudeDir = layOutClaudeDir(root, { withLong: false });
  cpSync(FORKS, join(claudeDir, "projects"), { recursive: true });
  const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir };
  return { root, claudeDir, env, dbPath: join(root, "ctx-home", "index.db") };
}

describe("ctx_index", () => {
  it("stats: the report of ctx stats --json, and its text", async () => {
    const { root, claudeDir, env, dbPath } = setUp();
    await syncIndex({ claudeDir, dbPath });
    const client = await connectClient(testDeps(root, { env }));
    const result = await client.callTool({ name: "ctx_index", arguments: { op: "stats", top: 2 } });
    expect(result.isError).toBeFalsy();
    const structured = IndexToolOutputSchema.parse(result.structuredContent);
    const stats = IndexStatsReportSchema.parse(structured.stats);
    expect(stats).toMatchObject({ exists: true, sessions: 9, projects: 3, rebuild: null });
    expect(stats.duplicates).toEqual({ copies: 1, foldedInto: 1, sharedTranscripts: 0 });
    expect(stats.byProject).toHaveLength(3);
    const text = textOf(result);
    expect(text).toMatch(/sessions\s+9\n/);
    expect(text).toMatch(/duplicates\s+1 copy folded into 1 session/);
    expect(text).toMatch(/…\s+1 more/);
    // The whole file's check only when asked: seconds on a large index.
    expect(stats.integrity).toBe("not checked");
    const checked = await client.callTool({ name: "ctx_index", arguments: { op: "stats", check: true } });
    expect(IndexToolOutputSchema.parse(checked.structuredContent).stats).toEqual({ ...stats, integrity: "ok" });
    expect(textOf(checked)).toMatch(/integrity\s+ok\n/);
  });

  it("stats before any index says how to build one", async () => {
    const { root, env } = setUp();
    const client = await connectClient(testDeps(root, { env }));
    const result = await client.callTool({ name: "ctx_index", arguments: { op: "stats" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("run `ctx index`");
  });

  it("reindex without the ctx CLI to start is an isError with the hint; unknown ops and bad tops are rejected", async () => {
    const { root, env } = setUp();
    const client = await connectClient(testDeps(root, { env }));
    const result = await client.callTool({ name: "ctx_index", arguments: { op: "reindex" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("ctx reindex");
    await expectSchemaRejection(client, "ctx_index", { op: "drop" }, "op");
    await expectSchemaRejection(client, "ctx_index", { op: "stats", top: 0 }, "top");
    await expectSchemaRejection(client, "ctx_index", { op: "stats", check: "yes" }, "check");
  });

  it("reindex while one runs reports that one and starts nothing", async () => {
    const { root, env } = setUp();
    const running: RebuildRecord = {
      pid: process.pid,
      startedAt: 1,
      updatedAt: 2,
      finishedAt: null,
      outcome: "running",
      done: 4,
      total: 10,
      sessions: null,
      error: null,
    };
    mkdirSync(env.CTX_HOME, { recursive: true });
    writeFileSync(join(env.CTX_HOME, "reindex.json"), JSON.stringify(running));
    // A CLI that cannot run: a start would fail, so an answer without error proves nothing was started.
    const client = await connectClient(testDeps(root, { env, cli: { cliPath: "/nonexistent/ctx.js", execPath: "x" } }));
    const result = await client.callTool({ name: "ctx_index", arguments: { op: "reindex" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ op: "reindex", started: false, rebuild: running });
    expect(textOf(result)).toMatch(/already running: .* 4 of 10 files/);
  });

  it.skipIf(!existsSync(CTX_BIN))(
    "reindex starts the built ctx reindex in the background, which records its run",
    async () => {
      const { root, env } = setUp();
      const client = await connectClient(
        testDeps(root, { env, cli: { cliPath: CTX_BIN, execPath: process.execPath } }),
      );
      const result = await client.callTool({ name: "ctx_index", arguments: { op: "reindex" } });
      expect(result.isError, textOf(result)).toBeFalsy();
      const structured = IndexToolOutputSchema.parse(result.structuredContent);
      expect(structured.started).toBe(true);
      const pid = structured.rebuild?.pid;
      // The child is on its own: wait for its record to say how it ended.
      const deadline = Date.now() + 60_000;
      let record = readRebuildRecord(env);
      while ((record === null || record.outcome === "running") && Date.now() < deadline) {
        await new Promise((settle) => setTimeout(settle, 100));
        record = readRebuildRecord(env);
      }
      expect(record).toMatchObject({ pid, outcome: "done", sessions: 9 });
      const stats = await client.callTool({ name: "ctx_index", arguments: { op: "stats" } });
      expect(IndexToolOutputSchema.parse(stats.structuredContent).stats?.sessions).toBe(9);
    },
  );
});
