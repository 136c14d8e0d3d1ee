// Every reference the repository makes points into the repository: the design notes kept outside it (DESIGN.md,
// STYLE.md, reference/claude-code.md, lessons-from-peers.md) are not there for a reader of a checkout. What the code
// rests on lives in docs/performance.md (budgets), ARCHITECTURE.md "Conventions" (rules) and
// docs/claude-code-facts.md (Claude Code's behaviour, with its sources).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const self = relative(repo, fileURLToPath(import.meta.url));

const OUTSIDE = /\b(?:DESIGN|STYLE)\.md\b|\bclaude-code\.md\b|\blessons-from-peers\.md\b|\breference §/;
const SCANNED_FOLDERS = ["src", "bench", "tests", "build", "scripts", "docs", ".claude"];
const SCANNED_FILE = /\.(?:[cm]?[jt]s|md|json|sh)$/;
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "results", "golden"]);

/** The lines of `text` that cite a note kept outside the repository, as `line: text`. */
function outsideCitations(text: string): string[] {
  return text.split("\n").flatMap((line, index) => (OUTSIDE.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
}

function scannedFiles(): string[] {
  const files = readdirSync(repo, { withFileTypes: true })
    .filter((entry) => entry.isFile() && SCANNED_FILE.test(entry.name))
    .map((entry) => entry.name);
  const walk = (folder: string): void => {
    for (const entry of readdirSync(join(repo, folder), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path);
      } else if (entry.isFile() && SCANNED_FILE.test(entry.name)) files.push(path);
    }
  };
  for (const folder of SCANNED_FOLDERS) walk(folder);
  return files.filter((file) => file !== self).sort();
}

describe("citations", () => {
  it("finds a citation of an outside note, and passes the repository's own pages", () => {
    expect(outsideCitations("// one\n// the hook budgets (DESIGN.md), the oclif pattern (STYLE.md)\n")).toEqual([
      "2: // the hook budgets (DESIGN.md), the oclif pattern (STYLE.md)",
    ]);
    expect(outsideCitations("(reference/claude-code.md §2.2)")).toHaveLength(1);
    expect(outsideCitations("(lessons-from-peers.md #7)")).toHaveLength(1);
    expect(outsideCitations("/** The modern stdin (reference §2.3). */")).toHaveLength(1);
    expect(
      outsideCitations('docs/performance.md, ARCHITECTURE.md "Conventions", docs/claude-code-facts.md "Transcripts"'),
    ).toEqual([]);
  });

  it("no file in the repository cites DESIGN.md, STYLE.md, claude-code.md or lessons-from-peers.md", () => {
    const files = scannedFiles();
    expect(files).toContain("src/errors.ts");
    const found = files.flatMap((file) =>
      outsideCitations(readFileSync(join(repo, file), "utf8")).map((hit) => `${file}:${hit}`),
    );
    expect(found).toEqual([]);
  });
});
