import { describe, expect, it } from "vitest";
import { extractRules, findImports, resolveCascade, resolveImport } from "./claude-md.ts";

describe("CLAUDE.md imports", () => {
  it("finds @paths in prose only: not in fences, code spans, HTML comments, or e-mail addresses", () => {
    const text = [
      "See @docs/style.md and @~/shared/rules.md, also @./local.md.",
      "Mail me at dev@example.com or ping @alice.",
      "Run `cat @not/this.md` first.",
      "```sh",
      "echo @not/fenced.md",
      "```",
      "<!-- @not/commented.md -->",
      "~~~",
      "@not/tilde-fenced.md",
      "~~~",
      "@../parent.md",
    ].join("\n");
    expect(findImports(text)).toEqual(["docs/style.md", "~/shared/rules.md", "./local.md", "../parent.md"]);
  });

  it("resolves relative to the importing file and ~ to the home folder", () => {
    expect(resolveImport("docs/a.md", "/p/CLAUDE.md", "/home/u")).toBe("/p/docs/a.md");
    expect(resolveImport("../b.md", "/p/docs/a.md", "/home/u")).toBe("/p/b.md");
    expect(resolveImport("~/c.md", "/p/CLAUDE.md", "/home/u")).toBe("/home/u/c.md");
    expect(resolveImport("/abs/d.md", "/p/CLAUDE.md", "/home/u")).toBe("/abs/d.md");
  });
});

describe("rules marked (ENFORCED) or (CRITICAL)", () => {
  it("keeps a bullet with its nested lines, a heading line and a paragraph, verbatim", () => {
    const text = [
      "# Project",
      "",
      "- Use pnpm, never npm. (ENFORCED)",
      "  Lockfile conflicts otherwise.",
      "  - sub point",
      "- An ordinary bullet",
      "  - A nested rule (CRITICAL)",
      "",
      "## Never commit secrets (CRITICAL)",
      "",
      "Every migration is reviewed",
      "by two people (ENFORCED).",
      "",
      "1. Numbered rule (critical)",
      "",
      "```",
      "- fenced (ENFORCED)",
      "```",
      "Mention of `(CRITICAL)` in code does not count.",
    ].join("\n");
    const rules = extractRules(text, "/p/CLAUDE.md");
    expect(rules.map((rule) => rule.text)).toEqual([
      "- Use pnpm, never npm. (ENFORCED)\n  Lockfile conflicts otherwise.\n  - sub point",
      "  - A nested rule (CRITICAL)",
      "## Never commit secrets (CRITICAL)",
      "Every migration is reviewed\nby two people (ENFORCED).",
      "1. Numbered rule (critical)",
    ]);
    expect(rules.map((rule) => [rule.marker, rule.line])).toEqual([
      ["ENFORCED", 3],
      ["CRITICAL", 7],
      ["CRITICAL", 9],
      ["ENFORCED", 11],
      ["CRITICAL", 14],
    ]);
  });

  it("does not count a marker that only a nested bullet carries as its parent's", () => {
    const rules = extractRules("- parent\n  - child (ENFORCED)\n- sibling", "f");
    expect(rules.map((rule) => rule.text)).toEqual(["  - child (ENFORCED)"]);
  });
});

describe("the cascade", () => {
  const files: Record<string, string> = {
    "/home/u/.claude/CLAUDE.md": "- Global rule (ENFORCED)\n@~/notes/extra.md",
    "/home/u/notes/extra.md": "- From the home import (CRITICAL)",
    "/p/CLAUDE.md": "@docs/a.md\n- Project rule (ENFORCED)\n- Global rule (ENFORCED)",
    "/p/docs/a.md": "- A (ENFORCED)\n@b.md\n@missing.md",
    "/p/docs/b.md": "- B (ENFORCED)\n@c.md\n@a.md",
    "/p/docs/c.md": "- C (ENFORCED)\n@d.md",
    "/p/docs/d.md": "- D (ENFORCED)\n@e.md",
    "/p/docs/e.md": "- E, five hops away (ENFORCED)",
  };
  const read = (path: string) => files[path] ?? null;

  it("reads a file's own rules, then its imports, up to 4 hops; stops cycles, reports what it skipped, and keeps each rule once", () => {
    const cascade = resolveCascade(
      [
        { path: "/home/u/.claude/CLAUDE.md", scope: "global" },
        { path: "/p/CLAUDE.md", scope: "project" },
        { path: "/p/.claude/CLAUDE.md", scope: "project" },
      ],
      read,
      "/home/u",
    );
    expect(cascade.files.map((file) => [file.path, file.hops])).toEqual([
      ["/home/u/.claude/CLAUDE.md", 0],
      ["/home/u/notes/extra.md", 1],
      ["/p/CLAUDE.md", 0],
      ["/p/docs/a.md", 1],
      ["/p/docs/b.md", 2],
      ["/p/docs/c.md", 3],
      ["/p/docs/d.md", 4],
    ]);
    expect(cascade.rules.map((rule) => rule.text)).toEqual([
      "- Global rule (ENFORCED)",
      "- From the home import (CRITICAL)",
      "- Project rule (ENFORCED)",
      "- A (ENFORCED)",
      "- B (ENFORCED)",
      "- C (ENFORCED)",
      "- D (ENFORCED)",
    ]);
    expect(cascade.skipped).toEqual([
      { target: "/p/docs/e.md", from: "/p/docs/d.md", reason: "too-deep" },
      { target: "/p/docs/a.md", from: "/p/docs/b.md", reason: "cycle" },
      { target: "/p/docs/missing.md", from: "/p/docs/a.md", reason: "missing" },
    ]);
  });
});
