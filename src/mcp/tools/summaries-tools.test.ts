// ctx_summarize and ctx_context_stats through a real Client over InMemoryTransport.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURE, LONG_SESSION, layOutClaudeDir, SPOTTER_PROJECT } from "../../../tests/helpers/claude-projects.ts";
import {
  closeClients,
  connectClient,
  createEmptyProject,
  expectSchemaRejection,
  type McpTestProject,
  recordSession,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { ContextStatsSchema } from "../../core/summaries/stats.ts";
import { SummarizeReportSchema } from "../../summaries/operations.ts";

// The MCP tools read transcripts under Claude Code's projects folder only: the fixtures are laid out as one.
const CLAUDE_DIR = layOutClaudeDir(mkdtempSync(join(tmpdir(), "ctx-summaries-tools-")));
const LONG_FIXTURE = join(CLAUDE_DIR, "projects", SPOTTER_PROJECT, `${LONG_SESSION}.jsonl`);
const OUTSIDE_FIXTURE = FIXTURE.long;
let test: McpTestProject;
beforeEach(() => {
  test = createEmptyProject();
});
afterEach(closeClients);
const deps = () =>
  testDeps(test.project, { env: { CTX_HOME: join(test.project, "..", "home"), CLAUDE_CONFIG_DIR: CLAUDE_DIR } });

describe("break 13: the summaries tools read any transcript-shaped file", () => {
  it("a path outside Claude Code's projects folder, or a device, is an isError result; nothing is read", async () => {
    const client = await connectClient(deps());
    for (const session of [OUTSIDE_FIXTURE, "/dev/zero", "/etc/passwd"]) {
      for (const name of ["ctx_summarize", "ctx_context_stats"]) {
        const result = await client.callTool({ name, arguments: { session } });
        expect(result.isError, `${name} ${session}`).toBe(true);
        expect(textOf(result)).toMatch(/not a transcript under Claude Code's projects folder/);
      }
    }
  });

  it("a non-regular file inside the projects folder is refused, not waited on", async () => {
    const fifo = join(CLAUDE_DIR, "projects", SPOTTER_PROJECT, "pipe.jsonl");
    if (!existsSync(fifo)) (await import("node:child_process")).execFileSync("mkfifo", [fifo]);
    const client = await connectClient(deps());
    const result = await client.callTool({ name: "ctx_context_stats", arguments: { session: fifo } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not a regular file/);
  });

  it("two files with one name in different folders never share a summaries sidecar (CLI paths)", async () => {
    const { resolveSummarySession } = await import("../../summaries/session-source.ts");
    const root = mkdtempSync(join(tmpdir(), "ctx-sidecar-names-"));
    const paths = ["a", "b"].map((folder) => {
      mkdirSync(join(root, folder));
      writeFileSync(join(root, folder, "x.jsonl"), "");
      return join(root, folder, "x.jsonl");
    });
    const lookup = {
      projectRoot: test.project,
      config: deps().config,
      cwd: root,
      env: { CLAUDE_CONFIG_DIR: CLAUDE_DIR },
    };
    const [a, b] = await Promise.all(paths.map((path) => resolveSummarySession(lookup, path)));
    expect(a?.sessionId).not.toBe(b?.sessionId);
    const inside = await resolveSummarySession(lookup, LONG_FIXTURE);
    expect(inside.sessionId).toBe(LONG_SESSION);
  });
});

describe("ctx_summarize", () => {
  it("summarises the session that spawned the server and returns the assembled context", async () => {
    await recordSession(test, "mine");
    const client = await connectClient({ ...deps(), sessionId: "mine" });
    const result = await client.callTool({ name: "ctx_summarize", arguments: {} });
    expect(result.isError).toBeFalsy();
    const output = SummarizeReportSchema.parse(result.structuredContent);
    expect(output).toMatchObject({ sessionId: "mine", provider: "extractive", made: 6, reused: 0, llmRequests: 0 });
    expect(existsSync(output.sidecar)).toBe(true);
    expect(textOf(result)).toMatch(/^Session mine: 6 messages summarised now \(extractive\), 0 reused/);
    expect(textOf(result)).toContain("## Recent (6 messages, verbatim)");
    expect(textOf(result)).toContain("We decided to retry three times with exponential backoff.");
  });

  it("waits for the asking session's transcript when Claude Code has not written it yet", async () => {
    const transcript = await recordSession(test, "late");
    const { readFileSync, renameSync } = await import("node:fs");
    const lines = readFileSync(transcript);
    renameSync(transcript, `${transcript}.aside`);
    setTimeout(() => writeFileSync(transcript, lines), 300);
    const client = await connectClient({ ...deps(), sessionId: "late" });
    const result = await client.callTool({ name: "ctx_context_stats", arguments: {} });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(ContextStatsSchema.parse(result.structuredContent).sessionId).toBe("late");
  });

  it("takes a transcript path; `from` makes the summaries again from that message on", async () => {
    const client = await connectClient(deps());
    const first = SummarizeReportSchema.parse(
      (await client.callTool({ name: "ctx_summarize", arguments: { session: LONG_FIXTURE } })).structuredContent,
    );
    expect(first.stats.layers.aggregate.messages).toBeGreaterThan(150);
    const compactSummary = "e95c1e9a-5084-4e69-bf3d-42c8d45f3985"; // the fixture's compact summary entry
    const again = await client.callTool({
      name: "ctx_summarize",
      arguments: { session: LONG_FIXTURE, from: compactSummary },
    });
    expect(again.isError, textOf(again)).toBeFalsy();
    const output = SummarizeReportSchema.parse(again.structuredContent);
    expect(output.made).toBeGreaterThan(0);
    expect(output.made).toBeLessThan(first.messages);
  });

  it("is an isError result for an unknown message or no recorded session", async () => {
    const client = await connectClient(deps());
    const none = await client.callTool({ name: "ctx_summarize", arguments: {} });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/ctx_summarize failed \[NOT_FOUND\]/);
    await recordSession(test, "s1");
    const unknown = await client.callTool({ name: "ctx_summarize", arguments: { from: "nope" } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("no message nope in session s1");
  });

  it("rejects arguments of the wrong type", async () => {
    const client = await connectClient(deps());
    await expectSchemaRejection(client, "ctx_summarize", { from: 7 }, "from");
  });
});

describe("ctx_context_stats", () => {
  it("reports tokens per layer and the compression ratio (bridge preset)", async () => {
    const client = await connectClient(deps());
    const result = await client.callTool({
      name: "ctx_context_stats",
      arguments: { session: LONG_FIXTURE, preset: "bridge" },
    });
    expect(result.isError).toBeFalsy();
    const stats = ContextStatsSchema.parse(result.structuredContent);
    expect(stats.layers.recent.messages).toBe(5);
    expect(stats.layers.summarized.messages).toBe(15);
    expect(stats.compressionRatio).toBeGreaterThan(0);
    expect(stats.compressionRatio).toBeLessThan(0.2);
    expect(textOf(result)).toMatch(/assembled\s+\d+ tokens of a 12000 budget/);
  });

  it("is an isError result when there is no session, and rejects an unknown preset", async () => {
    const client = await connectClient(deps());
    const none = await client.callTool({ name: "ctx_context_stats", arguments: {} });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain("hint:");
    await expectSchemaRejection(client, "ctx_context_stats", { preset: "huge" }, "preset");
  });
});
