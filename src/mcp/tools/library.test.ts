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
import { readLibrary } from "../../store/library/library-state.ts";
import { LibraryOutputSchema } from "./library.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const PHOENIX = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-library-mcp-"));
  writeSampleClaudeDir(join(base, "claude"));
  env = { CLAUDE_CONFIG_DIR: join(base, "claude"), CTX_HOME: join(base, "ctx-home") };
});
afterEach(closeClients);

function connect(sessionId?: string) {
  const config = defaultConfig();
  const projectRoot = "/path/to/Demo";
  return connectClient(
    testDeps(projectRoot, {
      env,
      ...(sessionId === undefined ? {} : { sessionId }),
      // As src/mcp/stdio.ts: every search's offer goes to the fork log (docs/forks.md).
      forkDetect: (request) =>
        runForkDetect(request, {
          config,
          env,
          projectRoot,
          now: () => NOW,
          recordOffer: { via: "mcp", warn: (message) => expect.fail(message) },
        }),
    }),
  );
}

const call = async (client: Awaited<ReturnType<typeof connect>>, args: Record<string, unknown>) => {
  const result = await client.callTool({ name: "ctx_library", arguments: args });
  return { result, output: result.isError ? null : LibraryOutputSchema.parse(result.structuredContent) };
};

describe("ctx_library through a real MCP client", () => {
  it("tags the asking session by default, and ctx_fork_detect filters and shows it", async () => {
    const client = await connect(PHOENIX);
    // The first search builds the index the library names sessions in.
    await client.callTool({ name: "ctx_fork_detect", arguments: { query: "phoenix server" } });
    const tagged = await call(client, { op: "tag", tags: ["Phoenix", "ops"] });
    expect(tagged.output?.update).toMatchObject({ sessionId: PHOENIX, annotation: { labels: ["ops", "phoenix"] } });
    expect(textOf(tagged.result)).toContain(`tag: ${PHOENIX}`);
    await call(client, { op: "star" });
    const noted = await call(client, { op: "note", note: "background start works with elixir --detached" });
    expect(noted.output?.update?.annotation.note).toBe("background start works with elixir --detached");

    const search = await client.callTool({
      name: "ctx_fork_detect",
      arguments: { query: "phoenix server", tags: ["ops"], starred: true },
    });
    const report = ForkDetectReportSchema.parse(search.structuredContent);
    expect(report.results.map((r) => r.sessionId)).toEqual([PHOENIX]);
    expect(report.results[0]).toMatchObject({ starred: true, labels: ["ops", "phoenix"] });
    expect(report.message).toContain("yours: ★ starred · tags: ops, phoenix · note: background start");
    const none = await client.callTool({ name: "ctx_fork_detect", arguments: { query: "phoenix", tags: ["nope"] } });
    expect(ForkDetectReportSchema.parse(none.structuredContent).results).toEqual([]);

    const listed = await call(client, { op: "list", starred: true });
    expect(listed.output?.listing?.sessions.map((s) => s.sessionId)).toEqual([PHOENIX]);
    expect(textOf(listed.result)).toContain("note: background start");
    const shown = await call(client, { op: "show" });
    expect(shown.result.isError).toBeFalsy();
    expect(shown.output?.preview).toBe(textOf(shown.result));
    expect(textOf(shown.result)).toContain("background start works with elixir --detached");
    expect(Buffer.byteLength(textOf(shown.result))).toBeLessThanOrEqual(3_000);
    const byPrefix = await call(client, { op: "show", session_id: PHOENIX.slice(0, 8) });
    expect(textOf(byPrefix.result)).toBe(textOf(shown.result));

    await call(client, { op: "note", note: "" });
    expect((await readLibrary(env))[PHOENIX]?.note).toBeNull();
  });

  it("answers an unknown session, a hostile tag and a missing session with isError, writing nothing", async () => {
    const client = await connect();
    const before = await readLibrary(env);
    const unknown = await call(client, { op: "star", session_id: "ffffffff" });
    expect(unknown.result.isError).toBe(true);
    expect(textOf(unknown.result)).toContain("no indexed session");
    const hostile = await call(client, { op: "tag", session_id: PHOENIX, tags: ["\u001b[2Jx"] });
    expect(hostile.result.isError).toBe(true);
    expect(textOf(hostile.result)).toContain("control character");
    const nobody = await call(client, { op: "star" });
    expect(nobody.result.isError).toBe(true);
    expect(textOf(nobody.result)).toContain("pass session_id");
    expect(await readLibrary(env)).toEqual(before);
  });

  it("lists fork history for Claude: the searches it answered are in the log, and no fork yet", async () => {
    const client = await connect(PHOENIX);
    await client.callTool({ name: "ctx_fork_detect", arguments: { query: "phoenix server" } });
    const forks = await call(client, { op: "forks", since: "30d", limit: 5 });
    expect(forks.result.isError).toBeFalsy();
    expect(forks.output?.forks?.forks).toEqual([]);
    expect(forks.output?.forks?.stats.searches).toBeGreaterThanOrEqual(1);
    const bad = await call(client, { op: "forks", since: "last tuesday-ish" });
    expect(bad.result.isError).toBe(true);
    expect(textOf(bad.result)).toContain("is not a date");
  });

  it("rejects arguments outside its schema", async () => {
    const client = await connect(PHOENIX);
    await expectSchemaRejection(client, "ctx_library", { op: "tag" }, "tags");
    await expectSchemaRejection(client, "ctx_library", { op: "note", note: "x".repeat(1_000_000) }, "note");
    await expectSchemaRejection(client, "ctx_library", { op: "delete" }, "op");
    await expectSchemaRejection(client, "ctx_library", { op: "show", tags: ["x"] }, "tags");
    await expectSchemaRejection(client, "ctx_library", { op: "forks", limit: 1_000 }, "limit");
  });
});
