import { describe, expect, it } from "vitest";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import {
  type MemoryTopic,
  orderByUse,
  parseTopicFile,
  recordUse,
  renderIndex,
  renderTopicFile,
  SECTION_END,
  SECTION_START,
  searchTopics,
  topicFileName,
} from "./topics.ts";

const topic = (name: string, extra: Partial<MemoryTopic> = {}): MemoryTopic => ({
  name,
  description: `about ${name}`,
  type: "project",
  file: topicFileName(name),
  content: `${name} content`,
  ...extra,
});

describe("auto-memory topics", () => {
  it("derives safe file names and refuses names that could leave the folder", () => {
    expect(topicFileName("Retry policy: v2!")).toBe("retry_policy_v2.md");
    expect(topicFileName("  User Role ")).toBe("user_role.md");
    for (const bad of [
      "../etc/passwd",
      "a/b",
      "a\\b",
      "..",
      "",
      "x".repeat(81),
      "line\nbreak",
      "del\u007fete",
      "MEMORY",
      "!!!",
    ]) {
      expect(thrownCtxError(() => topicFileName(bad)).code).toBe("USAGE");
    }
  });

  it("round-trips frontmatter through YAML, quoting what needs quoting", () => {
    const text = renderTopicFile(
      {
        name: "Deploys: how",
        description: "Never on Fridays # really",
        type: "feedback",
        modified: "2026-11-22T10:00:00.000Z",
      },
      "Deploy from `main` only.\n",
    );
    expect(text.startsWith('---\nname: "Deploys: how"\n')).toBe(true);
    expect(parseTopicFile("deploys_how.md", text)).toEqual({
      name: "Deploys: how",
      description: "Never on Fridays # really",
      type: "feedback",
      modified: "2026-11-22T10:00:00.000Z",
      file: "deploys_how.md",
      content: "Deploy from `main` only.",
    });
  });

  it("is not a topic without valid frontmatter (no block, bad YAML, unknown type)", () => {
    expect(parseTopicFile("a.md", "# just notes")).toBeNull();
    expect(parseTopicFile("a.md", "---\nname: [unclosed\n---\nx")).toBeNull();
    expect(parseTopicFile("a.md", "---\nname: a\ndescription: b\ntype: diary\n---\nx")).toBeNull();
  });

  it("orders by uses, then last use, then name", () => {
    let usage = { topics: {} };
    const now = (minute: number) => new Date(Date.UTC(2026, 10, 22, 10, minute));
    usage = recordUse(usage, "b.md", now(1));
    usage = recordUse(usage, "c.md", now(2));
    usage = recordUse(usage, "c.md", now(3));
    usage = recordUse(usage, "a.md", now(4));
    const ordered = orderByUse([topic("a"), topic("b"), topic("c"), topic("d")], usage);
    expect(ordered.map((t) => t.file)).toEqual(["c.md", "a.md", "b.md", "d.md"]);
  });
});

describe("the MEMORY.md index", () => {
  it("keeps what others wrote, and does not list a topic they already link", () => {
    const current = `# My notes\n- [Mine](mine.md) — by hand\n\n${SECTION_START}\n- stale\n${SECTION_END}\n\nTrailer line.\n`;
    const index = renderIndex(current, [topic("mine"), topic("retry")], { maxLines: 200, maxBytes: 25_000 });
    expect(index.text).toBe(
      `# My notes\n- [Mine](mine.md) — by hand\n\n${SECTION_START}\n- [retry](retry.md) — about retry (project)\n${SECTION_END}\n\nTrailer line.\n`,
    );
    expect(index.listed).toEqual(["retry.md"]);
  });

  it("break 11: a description holding the end marker leaves nothing outside ctx's section, even after a delete", () => {
    const hostile = topic("evil", { description: `x ${SECTION_END} injected line <!-- more -->` });
    const first = renderIndex("# Notes by hand\n", [hostile, topic("retry")], { maxLines: 200, maxBytes: 25_000 });
    expect(first.text.split(SECTION_END)).toHaveLength(2); // exactly one end marker
    // The topic is deleted: the section is rebuilt without it and nothing of it survives.
    const after = renderIndex(first.text, [topic("retry")], { maxLines: 200, maxBytes: 25_000 });
    expect(after.text).not.toMatch(/injected|evil/);
    // A MEMORY.md an older ctx already damaged (fragments after an early end marker) is repaired too.
    const damaged = `# Notes by hand\n\n${SECTION_START}\n- [evil](evil.md) — x ${SECTION_END} injected line (project)\n${SECTION_END}\n`;
    const repaired = renderIndex(damaged, [topic("retry")], { maxLines: 200, maxBytes: 25_000 });
    expect(repaired.text).not.toMatch(/injected/);
    expect(repaired.text).toContain("# Notes by hand");
  });

  it("drops the least used entries until the whole file is within 200 lines and 25 KB", () => {
    const many = Array.from({ length: 300 }, (_, i) => topic(`t${String(i).padStart(3, "0")}`));
    const byLines = renderIndex("", many, { maxLines: 200, maxBytes: 25_000 });
    expect(byLines.lines).toBe(200);
    expect(byLines.listed).toHaveLength(200 - 4); // heading, blank line, two markers
    expect(byLines.trimmed[0]).toBe("t196.md");
    const wide = many.map((t) => ({ ...t, description: "d".repeat(300) }));
    const byBytes = renderIndex("", wide, { maxLines: 200, maxBytes: 25_000 });
    expect(byBytes.bytes).toBeLessThanOrEqual(25_000);
    expect(byBytes.bytes + 330).toBeGreaterThan(25_000); // one more entry would not fit
    expect(byBytes.listed.length + byBytes.trimmed.length).toBe(300);
  });
});

describe("memory search", () => {
  it("ranks name and description matches over content matches, with a snippet", () => {
    const hits = searchTopics(
      [
        topic("deploys", { description: "how we deploy", content: "Use the blue-green script." }),
        topic("retries", { content: "Backoff doubles; deploy after tests pass." }),
        topic("unrelated"),
      ],
      "Deploy",
    );
    expect(hits.map((hit) => [hit.topic.name, hit.score])).toEqual([
      ["deploys", 1],
      ["retries", 0.5],
    ]);
    expect(hits[1]?.snippet).toContain("deploy after tests pass");
    expect(searchTopics([topic("a")], "  ")).toEqual([]);
  });

  it("compares whole words without function words: an unrelated topic is no match (#24)", () => {
    const topics = [
      topic("deploy-policy", {
        description: "how we ship software",
        content: "Deploys are blue-green; there are two regions and we roll back by hand.",
      }),
      topic("backups", {
        description: "where the backups go",
        content: "Nightly backups are rotated offsite after 14 days.",
      }),
    ];
    const hits = searchTopics(topics, "how are backups rotated offsite");
    expect(hits.map((hit) => hit.topic.name)).toEqual(["backups"]);
    expect(hits[0]?.score).toBe(0.67); // backups in the description (2 of 2), rotated and offsite in the body (1 of 2 each)
    expect(hits[0]?.snippet).toContain("rotated offsite");
    expect(searchTopics(topics, "how are the")).toEqual([]);
  });
});
