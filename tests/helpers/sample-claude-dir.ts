// Lays the real fixture transcripts out the way Claude Code stores them
// (`<claude>/projects/<folder of cwd>/<session-id>.jsonl`, subagents under `<session-id>/subagents/`), so the
// index, the quick start and the tests can treat them as someone's ~/.claude. The copies are new files (as if
// the sessions had just been synced to this machine); the sessions' own dates stay in their timestamps.
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/transcripts", import.meta.url));
const SOURCES = ["spotter", "claude-code-viewer"];

export interface SampleSession {
  sessionId: string;
  cwd: string;
  path: string;
}

/** Copies every fixture session into `<claudeDir>/projects/…`; returns where each went. */
export function writeSampleClaudeDir(claudeDir: string): SampleSession[] {
  const written: SampleSession[] = [];
  for (const source of SOURCES) {
    const folder = join(FIXTURES, source);
    for (const name of readdirSync(folder).filter((file) => file.endsWith(".jsonl"))) {
      const file = join(folder, name);
      const { sessionId, cwd } = describeTranscript(file);
      const project = join(claudeDir, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"));
      const path = join(project, `${sessionId}.jsonl`);
      mkdirSync(project, { recursive: true });
      copyFileSync(file, path);
      copySubagents(join(folder, basename(name, ".jsonl"), "subagents"), join(project, sessionId, "subagents"));
      written.push({ sessionId, cwd, path });
    }
  }
  return written;
}

/** The session id and working folder of the first entry that has both. */
function describeTranscript(file: string): { sessionId: string; cwd: string } {
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const entry = JSON.parse(line) as { sessionId?: unknown; cwd?: unknown };
      if (typeof entry.sessionId === "string" && typeof entry.cwd === "string") {
        return { sessionId: entry.sessionId, cwd: entry.cwd };
      }
    } catch {
      // Malformed lines stay in the copy: the indexer must cope with them.
    }
  }
  return { sessionId: basename(file, ".jsonl"), cwd: "/sample" };
}

function copySubagents(from: string, to: string): void {
  let names: string[];
  try {
    names = readdirSync(from).filter((file) => file.endsWith(".jsonl"));
  } catch {
    return;
  }
  mkdirSync(to, { recursive: true });
  for (const name of names) copyFileSync(join(from, name), join(to, name));
}

// `node tests/helpers/sample-claude-dir.ts <dir>` (the quick start uses it).
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const target = process.argv[2];
  if (target === undefined) {
    process.stderr.write("usage: node tests/helpers/sample-claude-dir.ts <claude-dir>\n");
    process.exit(2);
  }
  const sessions = writeSampleClaudeDir(target);
  process.stdout.write(`${sessions.length} sample sessions in ${join(target, "projects")}\n`);
}
