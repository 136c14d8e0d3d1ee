// A test's own copy of the sample sessions in tests/fixtures/claude (Claude Code's layout:
// `<claude>/projects/<folder of cwd>/<session-id>.jsonl`, subagents under `<session-id>/subagents/`), so a test can
// treat them as someone's ~/.claude and change them. The copies are new files (as if the sessions had just been synced
// to this machine); the sessions' own dates stay in their timestamps.
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { FIXTURE_CLAUDE_DIR } from "./claude-projects.ts";

export interface SampleSession {
  sessionId: string;
  cwd: string;
  path: string;
}

/** Copies every fixture session into `<claudeDir>/projects/…`; returns where each went. */
export function writeSampleClaudeDir(claudeDir: string): SampleSession[] {
  const projects = join(claudeDir, "projects");
  cpSync(join(FIXTURE_CLAUDE_DIR, "projects"), projects, { recursive: true });
  const written: SampleSession[] = [];
  for (const folder of readdirSync(projects).sort()) {
    for (const name of readdirSync(join(projects, folder)).filter((file) => file.endsWith(".jsonl"))) {
      const path = join(projects, folder, name);
      written.push({ sessionId: basename(name, ".jsonl"), cwd: cwdOf(path), path });
    }
  }
  return written;
}

/** The working folder of the first entry that has one. */
function cwdOf(file: string): string {
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const entry = JSON.parse(line) as { cwd?: unknown };
      if (typeof entry.cwd === "string") return entry.cwd;
    } catch {
      // Malformed lines stay in the copy: the indexer must cope with them.
    }
  }
  return "/sample";
}
