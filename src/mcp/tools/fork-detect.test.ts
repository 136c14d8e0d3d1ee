import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  closeClients,
  connectClient,
  expectSchemaRejection,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { writeSampleClaudeDir } from "../../../tests/helpers/sample-claude-dir.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { runForkDetect } from "../../search/fork-detect.ts";
import { ForkDetectReportSchema } from "../../search/fork-report-schema.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const PHOENIX = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-fork-"));
  writeSampleClaudeDir(join(base, "claude"));
  env = { CLAUDE_CONFIG_DIR: join(base, "claude"), CTX_HOME: join(base, "ctx-home") };
});
afterEach(closeClients);

function connect(projectRoot = "/path/to/Demo", currentSessionId?: string) {
  const config = defaultConfig();
  const current = currentSessionId === undefined ? {} : { currentSessionId };
  return connectClient(
    testDeps(projectRoot, {
      forkDetect: (request) => runForkDetect(request, { config, env, projectRoot, now: () => NOW, ...current }),
    }),
  );
}

describe("ctx_fork_detect", () => {
  it("ranks the session about the request first, with its fork command", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "ctx_fork_detect",
      arguments: { query: "start the phoenix server in the background" },
    });
    expect(result.isError).toBeFalsy();
    const output = ForkDetectReportSchema.parse(result.structuredContent);
    expect(output.indexedSessions).toBe(7);
    const [best] = output.results;
    expect(best?.sessionId).toBe(PHOENIX);
    expect(best?.topic).toBe("start phoenix in background");
    expect(best?.forkCommand).toBe(`cd /home/marco/projects/spotter && claude --resume ${PHOENIX} --fork-session`);
    expect(best?.inSessionCommand).toBe(`/resume ${PHOENIX}, then /branch`);
    expect(best?.score).toBeGreaterThan(output.results[1]?.score ?? 0);
    expect(best?.transcriptExists).toBe(true);
    expect(textOf(result)).toContain(`claude --resume ${PHOENIX} --fork-session`);
  });

  it("adds a bounded preview of the top results when asked, in the text and the structured result", async () => {
    const client = await connect();
    const plain = ForkDetectReportSchema.parse(
      (await client.callTool({ name: "ctx_fork_detect", arguments: { query: "start the phoenix server" } }))
        .structuredContent,
    );
    expect(plain.results.every((candidate) => candidate.sessionPreview === undefined)).toBe(true);

    const result = await client.callTool({
      name: "ctx_fork_detect",
      arguments: { query: "start the phoenix server in the background", preview: 2 },
    });
    expect(result.isError).toBeFalsy();
    const output = ForkDetectReportSchema.parse(result.structuredContent);
    const [best, second, third] = output.results;
    expect(best?.sessionId).toBe(PHOENIX);
    expect(best?.matchUuid).toMatch(/^[0-9a-f-]{36}$/);
    // Its matched exchange marked, the whole preview a few KB.
    expect(best?.sessionPreview).toContain(`  session   ${PHOENIX}`);
    expect(best?.sessionPreview).toMatch(/── \d+ · [^\n]* · ▶ matched ──/);
    expect(Buffer.byteLength(best?.sessionPreview ?? "")).toBeLessThanOrEqual(3_000);
    expect(second?.sessionPreview).toContain(`  session   ${second?.sessionId}`);
    expect(third?.sessionPreview).toBeUndefined();
    // In the text, indented under its candidate.
    expect(textOf(result)).toContain(
      `   session preview:\n      start phoenix in background\n      ${"  session   "}${PHOENIX}`,
    );

    const top3 = ForkDetectReportSchema.parse(
      (
        await client.callTool({
          name: "ctx_fork_detect",
          arguments: { query: "start the phoenix server in the background", preview: true },
        })
      ).structuredContent,
    );
    expect(top3.results.filter((candidate) => candidate.sessionPreview !== undefined)).toHaveLength(3);
  });

  it("never offers the asking session as its own fork", async () => {
    const client = await connect("/path/to/Demo", PHOENIX);
    const result = await client.callTool({
      name: "ctx_fork_detect",
      arguments: { query: "start the phoenix server in the background", limit: 3 },
    });
    const output = ForkDetectReportSchema.parse(result.structuredContent);
    expect(output.results.map((candidate) => candidate.sessionId)).not.toContain(PHOENIX);
    expect(output.results).toHaveLength(3);
  });

  it("keeps to this project when asked", async () => {
    const client = await connect("/path/to/Demo");
    const everywhere = await client.callTool({ name: "ctx_fork_detect", arguments: { query: "phoenix server" } });
    const all = ForkDetectReportSchema.parse(everywhere.structuredContent).results;
    expect(new Set(all.map((candidate) => candidate.project)).size).toBeGreaterThan(1);
    const result = await client.callTool({
      name: "ctx_fork_detect",
      arguments: { query: "phoenix server", project: "this", limit: 10 },
    });
    const output = ForkDetectReportSchema.parse(result.structuredContent);
    expect(output.results.length).toBeGreaterThan(0);
    for (const candidate of output.results) expect(candidate.project).toBe("-path-to-Demo");
  });

  it("says so and offers the options when nothing matches", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "ctx_fork_detect",
      arguments: { query: "zyxwvut quuxplorb frobnicator" },
    });
    expect(result.isError).toBeFalsy();
    const output = ForkDetectReportSchema.parse(result.structuredContent);
    expect(output.results).toEqual([]);
    expect(output.message).toBe(textOf(result));
    expect(textOf(result)).toContain("No past session matches");
    expect(textOf(result)).toContain("start fresh");
    // The most recent sessions are offered instead (the sample's newest is the long spotter one).
    expect(output.recent).toHaveLength(3);
    expect(output.recent[0]?.sessionId).toBe("4d5611e5-241a-462a-8d15-5122611a9569");
    expect(textOf(result)).toContain(`fork: ${output.recent[0]?.forkCommand}`);
  });

  it("answers a bad date or an unknown project with an error result and a hint", async () => {
    const client = await connect();
    const badDate = await client.callTool({ name: "ctx_fork_detect", arguments: { query: "todo", since: "soonish" } });
    expect(badDate.isError).toBe(true);
    expect(textOf(badDate)).toContain("7d");
    const project = await client.callTool({ name: "ctx_fork_detect", arguments: { query: "todo", project: "nope" } });
    expect(project.isError).toBe(true);
    expect(textOf(project)).toContain("known projects");
  });

  it("rejects arguments its schema does not allow", async () => {
    const client = await connect();
    await expectSchemaRejection(client, "ctx_fork_detect", { query: "x", limit: 0 }, "limit");
    await expectSchemaRejection(client, "ctx_fork_detect", {}, "query");
    await expectSchemaRejection(client, "ctx_fork_detect", { query: "x", scope: "everywhere" }, "scope");
    await expectSchemaRejection(client, "ctx_fork_detect", { query: "x", preview: 11 }, "preview");
    await expectSchemaRejection(client, "ctx_fork_detect", { query: "x", preview: "yes" }, "preview");
  });

  it("says how to join a team when asked for team results without one", async () => {
    const client = await connect();
    for (const scope of ["team", "all"]) {
      const result = await client.callTool({ name: "ctx_fork_detect", arguments: { query: "phoenix server", scope } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("ctx team join");
    }
    const local = await client.callTool({ name: "ctx_fork_detect", arguments: { query: "phoenix", scope: "local" } });
    expect(ForkDetectReportSchema.parse(local.structuredContent)).toMatchObject({ scope: "local", notices: [] });
  });
  it("says what the query's time words and exclusions were read as, in the text and the structured result", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "ctx_fork_detect",
      arguments: { query: "start the phoenix server since 1 January 2020" },
    });
    expect(result.isError).toBeFalsy();
    const output = ForkDetectReportSchema.parse(result.structuredContent);
    expect(output.results[0]?.sessionId).toBe(PHOENIX);
    expect(output.understood?.searched).toBe("start the phoenix server");
    expect(output.understood?.period?.words).toEqual(["since 1 January 2020"]);
    expect(textOf(result).split("\n")[0]).toBe("Searched sessions since 1 Jan 2020 (since 1 January 2020).");
    const without = ForkDetectReportSchema.parse(
      (await client.callTool({ name: "ctx_fork_detect", arguments: { query: "phoenix server -phoenix" } }))
        .structuredContent,
    );
    expect(without.understood?.excluded).toEqual(["phoenix"]);
    expect(without.results.map((r) => r.sessionId)).not.toContain(PHOENIX);
  });
});
