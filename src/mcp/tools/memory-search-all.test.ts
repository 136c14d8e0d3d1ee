import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  closeClients,
  connectClient,
  createEmptyProject,
  expectSchemaRejection,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { memoryFolder, writeTopic } from "../../../tests/helpers/memory-topics.ts";
import { syncIndex } from "../../search/sync/sync-index.ts";
import type { ServerDeps } from "../deps.ts";
import { MemorySearchOutputSchema } from "./memory-search.ts";

let claudeDir: string;
let ctxHome: string;
let deps: ServerDeps;
beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), "ctx-memory-all-"));
  claudeDir = join(root, "claude");
  ctxHome = join(root, "ctx-home");
  writeTopic(claudeDir, "-repo", "deploy.md", {
    name: "deploy",
    description: "how this repo ships",
    content: "Deploy with the release workflow; the staging backoff is configured there.",
  });
  writeTopic(claudeDir, "-other-api", "retry_policy.md", {
    name: "retry policy",
    description: "how the API client retries",
    content: "Retry three times with exponential backoff and jitter.",
  });
  writeTopic(claudeDir, "-other-web", "code_style.md", {
    name: "code style",
    description: "small functions",
    type: "feedback",
    content: "Prefer small pure functions.",
  });
  deps = testDeps(createEmptyProject().project, {
    memoryDir: memoryFolder(claudeDir, "-repo"),
    env: { CTX_HOME: ctxHome, CLAUDE_CONFIG_DIR: claudeDir },
  });
});
afterEach(closeClients);

const search = (client: Awaited<ReturnType<typeof connectClient>>, args: Record<string, unknown>) =>
  client.callTool({ name: "ctx_memory_search", arguments: args });

describe("ctx_memory_search with scope all", () => {
  it("finds another project's topic through the session index, this project's from its folder", async () => {
    await syncIndex({ claudeDir, dbPath: join(ctxHome, "index.db") });
    const client = await connectClient(deps);
    const result = await search(client, { query: "exponential backoff", scope: "all" });
    expect(result.isError).toBeFalsy();
    const output = MemorySearchOutputSchema.parse(result.structuredContent);
    // This project's topic holds one of the two words, in its body: a weaker match, listed apart with its relevance.
    expect(output.hits).toEqual([]);
    expect(output.weaker.map((hit) => [hit.topic.name, hit.score])).toEqual([["deploy", 0.25]]);
    expect(output.otherProjects).toMatchObject({ available: true, note: null });
    // This project's topic is not listed twice; the best other project's topic comes first.
    expect(output.otherProjects?.hits.map((hit) => [hit.project, hit.name])).toEqual([["-other-api", "retry policy"]]);
    expect(output.otherProjects?.hits[0]?.path).toBe(join(memoryFolder(claudeDir, "-other-api"), "retry_policy.md"));
    expect(output.otherProjects?.hits[0]?.similarity).toBeGreaterThan(0);
    const text = textOf(result);
    expect(text).toContain("retry policy (project) [-other-api]");
    expect(text).toContain("Weaker matches (fewer of the query's words):\n- deploy (project), relevance 0.25");
  });

  it("keeps the project scope by default: no index is opened, the output is unchanged", async () => {
    const client = await connectClient(deps);
    const result = await search(client, { query: "backoff" });
    const output = MemorySearchOutputSchema.parse(result.structuredContent);
    expect(output.otherProjects).toBeUndefined();
    expect(output.hits.map((hit) => hit.topic.name)).toEqual(["deploy"]);
    expect(textOf(result)).not.toContain("ctx index");
  });

  it("says to run `ctx index` when there is no session index, without failing", async () => {
    const client = await connectClient(deps);
    const result = await search(client, { query: "backoff", scope: "all" });
    expect(result.isError).toBeFalsy();
    const output = MemorySearchOutputSchema.parse(result.structuredContent);
    expect(output.otherProjects).toMatchObject({ available: false, hits: [], indexPath: join(ctxHome, "index.db") });
    expect(textOf(result)).toContain("run `ctx index`");
    expect(output.hits.map((hit) => hit.topic.name)).toEqual(["deploy"]);
  });

  it("says what to do about an index it cannot read, without failing", async () => {
    mkdirSync(ctxHome, { recursive: true });
    writeFileSync(join(ctxHome, "index.db"), "not a database at all, just text long enough to be read".repeat(20));
    const client = await connectClient(deps);
    const result = await search(client, { query: "backoff", scope: "all" });
    expect(result.isError).toBeFalsy();
    expect(MemorySearchOutputSchema.parse(result.structuredContent).otherProjects?.available).toBe(false);
    expect(textOf(result)).toContain("run `ctx reindex`");
  });

  it("rejects an unknown scope", async () => {
    const client = await connectClient(deps);
    await expectSchemaRejection(client, "ctx_memory_search", { query: "x", scope: "everything" }, "scope");
  });
});
