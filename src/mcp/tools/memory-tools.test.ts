import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSecretCases } from "../../../tests/fixtures/redaction/fake-secrets.ts";
import {
  closeClients,
  connectClient,
  createEmptyProject,
  expectSchemaRejection,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { parseTopicFile } from "../../core/memory/topics.ts";
import type { ServerDeps } from "../deps.ts";
import { MemoryDeleteOutputSchema } from "./memory-delete.ts";
import { MemoryListOutputSchema } from "./memory-list.ts";
import { MemoryReadOutputSchema } from "./memory-read.ts";
import { MemorySearchOutputSchema } from "./memory-search.ts";
import { MemoryWriteOutputSchema } from "./memory-write.ts";

let dir: string;
let deps: ServerDeps;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), "ctx-memory-")), "projects", "-repo", "memory");
  deps = testDeps(createEmptyProject().project, { memoryDir: dir });
});
afterEach(closeClients);

const write = (client: Awaited<ReturnType<typeof connectClient>>, name: string, extra: Record<string, unknown> = {}) =>
  client.callTool({
    name: "ctx_memory_write",
    arguments: { name, description: `about ${name}`, type: "project", content: `${name} details`, ...extra },
  });

describe("ctx_memory_write", () => {
  it("writes a topic file with frontmatter and lists it in MEMORY.md, private and redacted", async () => {
    const token = buildSecretCases().find((c) => c.id === "github-ghp")?.secrets[0]?.value ?? "";
    const client = await connectClient(deps);
    const result = await write(client, "Deploy policy", {
      type: "feedback",
      content: `Deploy with ${token} only from main.`,
    });
    const output = MemoryWriteOutputSchema.parse(result.structuredContent);
    expect(output).toMatchObject({ path: join(dir, "deploy_policy.md"), created: true, redactions: 1, inIndex: true });
    const text = readFileSync(output.path, "utf8");
    expect(text).not.toContain(token);
    expect(parseTopicFile("deploy_policy.md", text)).toMatchObject({
      name: "Deploy policy",
      type: "feedback",
      content: "Deploy with [REDACTED:github-token] only from main.",
    });
    expect(statSync(output.path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toContain(
      "- [Deploy policy](deploy_policy.md) — about Deploy policy (feedback)",
    );

    const again = MemoryWriteOutputSchema.parse(
      (await write(client, "deploy policy", { content: "v2" })).structuredContent,
    );
    expect(again.created).toBe(false);
  });

  it("keeps MEMORY.md within the configured limits, trimming the least used entries but keeping their files", async () => {
    const config = defaultConfig();
    config.memory.maxIndexLines = 6;
    const client = await connectClient({ ...deps, config });
    for (const name of ["alpha", "beta", "gamma"]) await write(client, name);
    await client.callTool({ name: "ctx_memory_read", arguments: { name: "gamma" } });
    const last = MemoryWriteOutputSchema.parse((await write(client, "delta")).structuredContent);
    expect(last.index.lines).toBe(6);
    expect(last.index.trimmed).toHaveLength(2);
    const index = readFileSync(join(dir, "MEMORY.md"), "utf8");
    expect(index).toContain("(gamma.md)"); // read twice as often: stays
    for (const file of ["alpha.md", "beta.md", "gamma.md", "delta.md"]) expect(existsSync(join(dir, file))).toBe(true);
  });

  it("is an isError result for a name that would leave the folder, and rejects a bad type", async () => {
    const client = await connectClient(deps);
    const bad = await write(client, "../../etc/cron");
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("[USAGE]");
    await expectSchemaRejection(
      client,
      "ctx_memory_write",
      { name: "a", description: "b", type: "diary", content: "c" },
      "type",
    );
  });

  it("loses no topic when two servers write at once", async () => {
    const [a, b] = [await connectClient(deps), await connectClient(deps)];
    await Promise.all(Array.from({ length: 10 }, (_, i) => write(i % 2 === 0 ? a : b, `topic ${i}`)));
    const index = readFileSync(join(dir, "MEMORY.md"), "utf8");
    for (let i = 0; i < 10; i += 1) expect(index).toContain(`(topic_${i}.md)`);
  });
});

describe("ctx_memory_read, _list, _search, _delete", () => {
  it("reads by name (counting the use), lists by use, searches and deletes", async () => {
    const client = await connectClient(deps);
    await write(client, "retries", { content: "Exponential backoff, three attempts." });
    await write(client, "style", { type: "user", content: "Prefers small functions." });
    const read = await client.callTool({ name: "ctx_memory_read", arguments: { name: "Retries" } });
    const output = MemoryReadOutputSchema.parse(read.structuredContent);
    expect(output).toMatchObject({
      content: "Exponential backoff, three attempts.",
      topic: { uses: 2, inIndex: true },
    });
    expect(textOf(read)).toContain("# retries (project)");

    const list = MemoryListOutputSchema.parse(
      (await client.callTool({ name: "ctx_memory_list", arguments: {} })).structuredContent,
    );
    expect(list.topics.map((t) => [t.name, t.uses])).toEqual([
      ["retries", 2],
      ["style", 1],
    ]);

    const search = await client.callTool({ name: "ctx_memory_search", arguments: { query: "backoff" } });
    expect(MemorySearchOutputSchema.parse(search.structuredContent).hits.map((h) => h.topic.name)).toEqual(["retries"]);

    const deleted = await client.callTool({ name: "ctx_memory_delete", arguments: { name: "retries" } });
    expect(MemoryDeleteOutputSchema.parse(deleted.structuredContent).file).toBe("retries.md");
    expect(existsSync(join(dir, "retries.md"))).toBe(false);
    expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).not.toContain("retries");
  });

  it("finds a topic Claude Code wrote itself by its frontmatter name", async () => {
    const client = await connectClient(deps);
    await write(client, "seed");
    writeFileSync(
      join(dir, "user-role.md"),
      "---\nname: User role\ndescription: senior dev\ntype: user\n---\nLikes Rust.\n",
    );
    const read = await client.callTool({ name: "ctx_memory_read", arguments: { name: "user role" } });
    expect(MemoryReadOutputSchema.parse(read.structuredContent).content).toBe("Likes Rust.");
  });

  it("says so for an unknown name (isError with the known names), and an empty folder lists nothing", async () => {
    const client = await connectClient(deps);
    const empty = await client.callTool({ name: "ctx_memory_list", arguments: {} });
    expect(MemoryListOutputSchema.parse(empty.structuredContent).topics).toEqual([]);
    expect(textOf(await client.callTool({ name: "ctx_memory_search", arguments: { query: "x" } }))).toContain(
      "No memory matches",
    );
    await write(client, "known");
    for (const tool of ["ctx_memory_read", "ctx_memory_delete"]) {
      const missing = await client.callTool({ name: tool, arguments: { name: "nope" } });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/\[NOT_FOUND\]: no memory named "nope"\nhint: known: known/);
    }
  });

  it("rejects missing or mistyped arguments", async () => {
    const client = await connectClient(deps);
    await expectSchemaRejection(client, "ctx_memory_read", {}, "name");
    await expectSchemaRejection(client, "ctx_memory_search", { query: "" }, "query");
    await expectSchemaRejection(client, "ctx_memory_delete", { name: 3 }, "name");
    await expectSchemaRejection(client, "ctx_memory_write", { name: "a", type: "user", content: "c" }, "description");
  });
});
