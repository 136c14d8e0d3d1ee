// Finds the Claude Code transcripts to index under `<claudeDir>/projects/*/`: each session's main file
// (`<session-id>.jsonl`) and its subagents (`<session-id>/subagents/agent-*.jsonl`, attached to the parent session).
// The compaction summariser's own transcripts (`agent-acompact-*`) are never listed: they are not the user's work.
// Unreadable folders, symlinks and stray files are passed over silently; an absent claudeDir gives [].
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

export interface DiscoveredFile {
  path: string;
  /** The session the file belongs to (a subagent file carries its parent's id). */
  sessionId: string;
  /** The project folder name under projects/ (e.g. `-home-user-app`). */
  project: string;
  kind: "main" | "subagent";
  size: number;
  mtimeMs: number;
}

const JSONL = ".jsonl";
const COMPACTION_AGENT_PREFIX = "agent-acompact-";

/** Every transcript under `<claudeDir>/projects`: by project, then session (its main file before its subagents). */
export async function discoverTranscripts(claudeDir: string): Promise<DiscoveredFile[]> {
  const projectsDir = join(claudeDir, "projects");
  const found: DiscoveredFile[] = [];
  for (const project of await listDirectory(projectsDir)) {
    if (!project.isDirectory()) continue;
    const projectDir = join(projectsDir, project.name);
    for (const entry of await listDirectory(projectDir)) {
      if (entry.isFile() && entry.name.endsWith(JSONL)) {
        const sessionId = entry.name.slice(0, -JSONL.length);
        if (sessionId === "" || sessionId.startsWith(COMPACTION_AGENT_PREFIX)) continue;
        await pushFile(found, join(projectDir, entry.name), sessionId, project.name, "main");
      } else if (entry.isDirectory()) {
        await pushSubagents(found, join(projectDir, entry.name), entry.name, project.name);
      }
    }
  }
  return found.sort(
    (a, b) =>
      compare(a.project, b.project) ||
      compare(a.sessionId, b.sessionId) ||
      compare(a.kind, b.kind) ||
      compare(a.path, b.path),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function pushSubagents(found: DiscoveredFile[], sessionDir: string, sessionId: string, project: string) {
  const subagentsDir = join(sessionDir, "subagents");
  for (const entry of await listDirectory(subagentsDir)) {
    if (!entry.isFile() || !isSubagentTranscript(entry.name)) continue;
    await pushFile(found, join(subagentsDir, entry.name), sessionId, project, "subagent");
  }
}

/** `agent-<id>.jsonl`, but never the compaction summariser's `agent-acompact-<hex>.jsonl`. */
export function isSubagentTranscript(name: string): boolean {
  return name.startsWith("agent-") && name.endsWith(JSONL) && !name.startsWith(COMPACTION_AGENT_PREFIX);
}

async function pushFile(
  found: DiscoveredFile[],
  path: string,
  sessionId: string,
  project: string,
  kind: DiscoveredFile["kind"],
): Promise<void> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return;
    found.push({ path, sessionId, project, kind, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) });
  } catch {
    // Deleted between the listing and the stat (Claude Code's cleanup sweep): not a transcript any more.
  }
}

/** A folder's entries; [] when it is absent, unreadable or not a folder. Symlinks are never followed. */
async function listDirectory(path: string): Promise<Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch {
    return [];
  }
}
