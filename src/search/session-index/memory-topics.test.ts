import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryTopicWriter, type IndexedMemoryTopic, searchMemoryTopics } from "./memory-topics.ts";
import { openSessionIndex, type SessionIndex } from "./session-index.ts";

const TOPICS: Array<Omit<IndexedMemoryTopic, "path" | "mtimeMs" | "size">> = [
  {
    project: "-api",
    name: "retry policy",
    description: "how fetchWithRetry backs off",
    type: "project",
    body: "fetchWithRetry retries three times with exponential backoff and jitter; never on a 4xx answer.",
  },
  {
    project: "-api",
    name: "deploy",
    description: "how releases ship",
    type: "reference",
    body: "Releases go out from main through the deploy workflow after the smoke tests pass.",
  },
  {
    project: "-web",
    name: "code style",
    description: "small functions",
    type: "feedback",
    body: "Prefer small pure functions, kebab-case files, and tests beside each module.",
  },
  {
    project: "-web",
    name: "user",
    description: "who the user is",
    type: "user",
    body: "A backend engineer who reviews every diff; mentions retries only in passing.",
  },
  {
    project: "-cli",
    name: "terminal output",
    description: "stdout is sacred",
    type: "feedback",
    body: "Data goes to stdout, everything else to stderr; --json wherever output is data.",
  },
];

let index: SessionIndex;
beforeEach(() => {
  index = openSessionIndex(join(mkdtempSync(join(tmpdir(), "ctx-topics-")), "index.db"));
  const writer = createMemoryTopicWriter(index);
  for (const topic of TOPICS) {
    writer.put({ ...topic, path: `/c/projects/${topic.project}/memory/${topic.name}.md`, mtimeMs: 1, size: 1 });
  }
});
afterEach(() => index.close());

describe("searchMemoryTopics", () => {
  it("ranks the topic that is about the query first, with a calibrated similarity", () => {
    const hits = searchMemoryTopics(index, "exponential backoff for retries", { limit: 5 });
    expect(hits[0]).toMatchObject({
      project: "-api",
      name: "retry policy",
      type: "project",
      path: "/c/projects/-api/memory/retry policy.md",
    });
    expect(hits.map((hit) => hit.name)).toContain("user"); // mentions retries, ranks below
    expect(hits.findIndex((hit) => hit.name === "user")).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.similarity).toBeGreaterThan(0);
    expect(hits[0]?.similarity).toBeLessThanOrEqual(1);
    expect(hits[0]?.similarity).toBeGreaterThan(hits[1]?.similarity ?? 0);
  });

  it("finds an identifier by its parts, filters by project, and honours the limit", () => {
    expect(searchMemoryTopics(index, "fetch with retry", { limit: 1 }).map((hit) => hit.name)).toEqual([
      "retry policy",
    ]);
    expect(searchMemoryTopics(index, "stdout stderr", { limit: 5 }).map((hit) => hit.project)).toEqual(["-cli"]);
    expect(searchMemoryTopics(index, "retries", { projects: ["-web"], limit: 5 }).map((hit) => hit.name)).toEqual([
      "user",
    ]);
    expect(searchMemoryTopics(index, "retries", { projects: [], limit: 5 })).toEqual([]);
  });

  it("is empty for a query without words, for unknown words, and after the topic is removed", () => {
    expect(searchMemoryTopics(index, "  ?! ", { limit: 5 })).toEqual([]);
    expect(searchMemoryTopics(index, "kubernetes", { limit: 5 })).toEqual([]);
    createMemoryTopicWriter(index).remove("/c/projects/-cli/memory/terminal output.md");
    expect(searchMemoryTopics(index, "stdout stderr", { limit: 5 })).toEqual([]);
  });
});
