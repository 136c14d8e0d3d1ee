// ctx_summarize and ctx_context_stats through a real Client over InMemoryTransport.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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

const LONG_FIXTURE = resolve("tests/fixtures/transcripts/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl");
let test: McpTestProject;
beforeEach(() => {
  test = createEmptyProject();
});
afterEach(closeClients);
const deps = () => testDeps(test.project, { env: { CTX_HOME: join(test.project, "..", "home") } });

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
