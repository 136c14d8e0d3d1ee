// Brings the session index's copy of the auto-memory topic files (the "deep" layer) up to date: every
// `<claudeDir>/projects/<project>/memory/*.md` but MEMORY.md (the index Claude Code loads, not a topic), dot
// files, symlinks, non-files and files over 1 MiB. A file whose size or mtime changed is read again, redacted,
// and written in its own short transaction; rows of files gone (or no longer topics) are deleted.
import { type Dirent, lstatSync, type Stats } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import { basename, join, sep } from "node:path";
import { INDEX_FILE, parseTopicFile } from "../../core/memory/topics.ts";
import { redactText } from "../../core/redact/redact.ts";
import { createMemoryTopicWriter, type IndexedMemoryTopic, memoryTopicTokens } from "../session-index/memory-topics.ts";
import type { SessionIndex } from "../session-index/session-index.ts";

/** Larger files are not memory topics Claude Code wrote: skipped. */
export const MAX_TOPIC_BYTES = 1024 * 1024;

export interface DiscoveredTopicFile {
  path: string;
  project: string;
  size: number;
  mtimeMs: number;
}

export interface MemorySyncSummary {
  /** Topic files found on disk. */
  scanned: number;
  /** Read and (re)written in the index. */
  indexed: number;
  /** Rows deleted: the file is gone, or no longer a topic (no valid frontmatter). */
  removed: number;
}

/**
 * Every candidate topic file under `<claudeDir>/projects/*\/memory/` (or only `onlyProject`'s, without listing the
 * others), by path. Absent folders give [].
 */
export async function discoverMemoryTopics(claudeDir: string, onlyProject?: string): Promise<DiscoveredTopicFile[]> {
  const projectsDir = join(claudeDir, "projects");
  const found: DiscoveredTopicFile[] = [];
  const projects =
    onlyProject === undefined
      ? (await listDirectory(projectsDir)).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
      : [onlyProject];
  for (const project of projects) {
    const memoryDir = join(projectsDir, project, "memory");
    // Absent, or a symlink; synchronous: most of ~1,000 project folders have none, and each awaited miss cost a
    // rejected promise and a trip through the thread pool.
    if (lstatOrNull(memoryDir)?.isDirectory() !== true) continue;
    for (const entry of await listDirectory(memoryDir)) {
      if (!entry.isFile() || !entry.name.endsWith(".md") || entry.name === INDEX_FILE || entry.name.startsWith(".")) {
        continue;
      }
      const path = join(memoryDir, entry.name);
      const info = await lstat(path).catch(() => null);
      if (info === null || !info.isFile() || info.size > MAX_TOPIC_BYTES) continue;
      found.push({ path, project, size: info.size, mtimeMs: Math.trunc(info.mtimeMs) });
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface MemorySyncOptions {
  full: boolean;
  /** Strings never redacted (config `redaction.allowlist`). */
  allowlist?: readonly string[];
  signal?: AbortSignal;
  /** Only this project folder's topics (SessionEnd's one session): the others' rows are left as they are. */
  project?: string;
}

export async function syncMemoryTopics(
  index: SessionIndex,
  claudeDir: string,
  options: MemorySyncOptions,
): Promise<MemorySyncSummary> {
  const files = await discoverMemoryTopics(claudeDir, options.project);
  const writer = createMemoryTopicWriter(index);
  const stored = inProject(writer.stored(), claudeDir, options.project);
  const summary: MemorySyncSummary = { scanned: files.length, indexed: 0, removed: 0 };
  const onDisk = new Set(files.map((file) => file.path));
  for (const path of stored.keys()) {
    if (!onDisk.has(path) && index.writeTransaction(() => writer.remove(path))) summary.removed += 1;
  }
  for (const file of files) {
    if (options.signal?.aborted === true) break;
    const known = stored.get(file.path);
    if (!options.full && known !== undefined && known.size === file.size && known.mtimeMs === file.mtimeMs) continue;
    const topic = await readTopic(file, options.allowlist ?? []);
    if (topic === null) {
      if (known !== undefined && index.writeTransaction(() => writer.remove(file.path))) summary.removed += 1;
      continue;
    }
    const tokens = memoryTopicTokens(topic);
    index.writeTransaction(() => writer.put(topic, tokens));
    summary.indexed += 1;
  }
  return summary;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** The stored rows of `project`'s memory folder (all rows without one). */
function inProject<T>(stored: Map<string, T>, claudeDir: string, project: string | undefined): Map<string, T> {
  if (project === undefined) return stored;
  const folder = join(claudeDir, "projects", project, "memory") + sep;
  return new Map([...stored].filter(([path]) => path.startsWith(folder)));
}

/** The file as an index row, redacted; null when it vanished or has no valid topic frontmatter. */
async function readTopic(file: DiscoveredTopicFile, allowlist: readonly string[]): Promise<IndexedMemoryTopic | null> {
  const text = await readFile(file.path, "utf8").catch(() => null);
  if (text === null) return null;
  const topic = parseTopicFile(basename(file.path), text);
  if (topic === null) return null;
  const redact = (value: string) => redactText(value, { allowlist }).text;
  return {
    path: file.path,
    project: file.project,
    name: redact(topic.name),
    description: redact(topic.description),
    type: topic.type,
    body: redact(topic.content),
    mtimeMs: file.mtimeMs,
    size: file.size,
  };
}

/** A folder's entries; [] when it is absent, unreadable or not a folder. Symlinks are never followed. */
async function listDirectory(path: string): Promise<Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch {
    return [];
  }
}
