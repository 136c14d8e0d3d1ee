import { mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSecretCases } from "../../../tests/fixtures/redaction/fake-secrets.ts";
import { memoryFolder, writeTopic } from "../../../tests/helpers/memory-topics.ts";
import { databaseOf } from "../session-index/database.ts";
import { openSessionIndex } from "../session-index/session-index.ts";
import { syncIndex } from "./sync-index.ts";

const TOKEN = buildSecretCases().find((c) => c.id === "github-ghp")?.secrets[0]?.value ?? "";

function rows(dbPath: string): Array<Record<string, unknown>> {
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    return databaseOf(index)
      .prepare("SELECT project, name, description, type, body, path FROM memory_topics ORDER BY path")
      .all() as Array<Record<string, unknown>>;
  } finally {
    index.close();
  }
}

function setup() {
  const root = mkdtempSync(join(tmpdir(), "ctx-sync-memory-"));
  const claudeDir = join(root, "claude");
  const dbPath = join(root, "ctx", "index.db");
  const retry = writeTopic(claudeDir, "-home-u-api", "retry_policy.md", {
    name: "retry policy",
    description: "how the API client retries",
    content: `Retry three times with exponential backoff. Token for the staging bot: ${TOKEN}`,
  });
  const style = writeTopic(claudeDir, "-home-u-web", "code_style.md", {
    name: "code style",
    description: "small functions",
    type: "feedback",
    content: "Prefer small pure functions and kebab-case file names.",
  });
  const web = memoryFolder(claudeDir, "-home-u-web");
  writeFileSync(join(web, "MEMORY.md"), "# Memory\n\n- [code style](code_style.md) — small functions (feedback)\n");
  writeFileSync(join(web, "notes.md"), "no frontmatter here: not a topic\n");
  writeFileSync(join(web, "huge.md"), `---\nname: huge\ndescription: big\ntype: project\n---\n${"x ".repeat(600_000)}`);
  symlinkSync(style, join(web, "linked.md"));
  return { claudeDir, dbPath, retry, style };
}

describe("syncIndex and the auto-memory topic files", () => {
  it("indexes every project's topics (redacted), skipping MEMORY.md, non-topics, symlinks and huge files", async () => {
    const { claudeDir, dbPath, retry, style } = setup();
    const summary = await syncIndex({ claudeDir, dbPath });
    expect(summary.memoryTopics).toEqual({ scanned: 3, indexed: 2, removed: 0 });
    expect(rows(dbPath)).toEqual([
      {
        project: "-home-u-api",
        name: "retry policy",
        description: "how the API client retries",
        type: "project",
        body: "Retry three times with exponential backoff. Token for the staging bot: [REDACTED:github-token]",
        path: retry,
      },
      {
        project: "-home-u-web",
        name: "code style",
        description: "small functions",
        type: "feedback",
        body: "Prefer small pure functions and kebab-case file names.",
        path: style,
      },
    ]);
    // The secret is nowhere in the database: neither the row nor the full-text index.
    expect(readFileSync(dbPath).includes(TOKEN)).toBe(false);
    const again = await syncIndex({ claudeDir, dbPath });
    expect(again.memoryTopics).toEqual({ scanned: 3, indexed: 0, removed: 0 });
  });

  it("re-reads a changed topic, drops a deleted one, and a full sync reads them all again", async () => {
    const { claudeDir, dbPath, retry, style } = setup();
    await syncIndex({ claudeDir, dbPath });
    writeTopic(claudeDir, "-home-u-api", "retry_policy.md", {
      name: "retry policy",
      description: "how the API client retries",
      content: "Retry five times, jittered.",
    });
    utimesSync(retry, new Date(), new Date(Date.now() + 5_000));
    rmSync(style);
    const summary = await syncIndex({ claudeDir, dbPath });
    expect(summary.memoryTopics).toEqual({ scanned: 2, indexed: 1, removed: 1 }); // notes.md is scanned, never indexed;
    expect(rows(dbPath).map((row) => [row.name, row.body])).toEqual([["retry policy", "Retry five times, jittered."]]);
    const index = openSessionIndex(dbPath, { readonly: true });
    try {
      const match = (word: string) =>
        databaseOf(index)
          .prepare("SELECT count(*) AS n FROM memory_topics_fts WHERE memory_topics_fts MATCH ?")
          .get(word);
      expect(match('"jitter"')).toEqual({ n: 1 });
      expect(match('"exponenti"')).toEqual({ n: 0 });
      expect(match('"small"')).toEqual({ n: 0 });
    } finally {
      index.close();
    }
    expect((await syncIndex({ claudeDir, dbPath, full: true })).memoryTopics).toEqual({
      scanned: 2,
      indexed: 1,
      removed: 0,
    });
  });

  it("drops a topic whose file lost its frontmatter", async () => {
    const { claudeDir, dbPath, retry } = setup();
    await syncIndex({ claudeDir, dbPath });
    writeFileSync(retry, "just text now\n");
    utimesSync(retry, new Date(), new Date(Date.now() + 5_000));
    expect((await syncIndex({ claudeDir, dbPath })).memoryTopics).toMatchObject({ indexed: 0, removed: 1 });
    expect(rows(dbPath).map((row) => row.name)).toEqual(["code style"]);
  });
});
