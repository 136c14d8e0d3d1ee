// The auto-memory folder on disk: Claude Code's own `<claude config>/projects/<repo>/memory/` (or its
// `autoMemoryDirectory` setting, or ctx's `memory.directory`), topic files and MEMORY.md written atomically
// (0600) under one lock, text redacted first, use counts in a small sidecar (`.ctx-memory-usage.json`).
// `listMemoryTopics` is the reader the session index uses for the "deep" layer. Every file is resolved inside the
// folder first (store/files/contained-path.ts): a link leading out of it is never written through (refused, naming
// the link, before any write of the change) nor read (skipped), and only regular files are read.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, unlink } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { claudeConfigDir, claudeProjectDirName, gitRepositoryRoot, homeOf } from "../../config/claude-paths.ts";
import type { Config } from "../../config/schema.ts";
import {
  INDEX_FILE,
  type IndexLimits,
  type MemoryTopic,
  type MemoryType,
  orderByUse,
  parseTopicFile,
  type RenderedIndex,
  recordUse,
  renderIndex,
  renderTopicFile,
  topicFileName,
  type UsageFile,
  UsageFileSchema,
} from "../../core/memory/topics.ts";
import { redactText } from "../../core/redact/redact.ts";
import { CtxError } from "../../errors.ts";
import { writeFileAtomic } from "../files/atomic-write.ts";
import { resolveInside } from "../files/contained-path.ts";
import { withLock } from "../files/lock.ts";
import { openRegularFile } from "../files/open-regular.ts";

const USAGE_FILE = ".ctx-memory-usage.json";
const INSIDE = { label: "the memory folder" };

/** The real path of `file` in the memory folder; UNSAFE_PATH when a link leads it out (checked before writing it). */
function memoryFilePath(dir: string, file: string): Promise<string> {
  return resolveInside(dir, file, INSIDE);
}

/** A memory file's text; null when absent, not a regular file, or a link leading out of the folder. */
async function readMemoryFile(dir: string, file: string): Promise<string | null> {
  const path = await memoryFilePath(dir, file).catch(() => null);
  if (path === null) return null;
  const handle = await openRegularFile(path).catch(() => null);
  if (handle === null) return null;
  try {
    return await handle.readFile("utf8");
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** The memory folder for a project; see the module comment for the order of precedence. */
export function memoryDirFor(projectRoot: string, env: NodeJS.ProcessEnv, config: Pick<Config, "memory">): string {
  const home = homeOf(env);
  const expand = (path: string) => (path.startsWith("~/") ? join(home, path.slice(2)) : path);
  if (config.memory.directory !== "") return resolve(projectRoot, expand(config.memory.directory));
  // Not the repository's committed .claude/settings.json: like Claude Code itself, a shared repository may not
  // redirect memory writes (SECURITY.md); the local settings and the user's own are the person's.
  const settings = [join(projectRoot, ".claude", "settings.local.json"), join(claudeConfigDir(env), "settings.json")];
  for (const file of settings) {
    const configured = autoMemoryDirectoryIn(file);
    if (configured !== null)
      return isAbsolute(expand(configured)) ? expand(configured) : resolve(projectRoot, configured);
  }
  return join(claudeConfigDir(env), "projects", claudeProjectDirName(gitRepositoryRoot(projectRoot)), "memory");
}

function autoMemoryDirectoryIn(settingsFile: string): string | null {
  if (!existsSync(settingsFile)) return null;
  try {
    const value = (JSON.parse(readFileSync(settingsFile, "utf8")) as { autoMemoryDirectory?: unknown })
      .autoMemoryDirectory;
    return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
  } catch {
    return null; // a settings file ctx cannot read is Claude Code's business, not a reason to fail
  }
}

/** Every topic file in the folder with valid frontmatter (MEMORY.md and other files are not topics). */
export async function listMemoryTopics(dir: string): Promise<MemoryTopic[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const topics: MemoryTopic[] = [];
  for (const file of names.sort()) {
    if (!file.endsWith(".md") || file === INDEX_FILE || file.startsWith(".")) continue;
    const text = await readMemoryFile(dir, file);
    const topic = text === null ? null : parseTopicFile(file, text);
    if (topic !== null) topics.push(topic);
  }
  return topics;
}

export async function readMemoryUsage(dir: string): Promise<UsageFile> {
  const text = await readMemoryFile(dir, USAGE_FILE);
  if (text === null) return { topics: {} };
  try {
    const parsed = UsageFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { topics: {} };
  } catch {
    return { topics: {} }; // only an ordering hint: start counting afresh
  }
}

export interface MemoryStoreOptions {
  dir: string;
  limits: IndexLimits;
  allowlist: readonly string[];
  now: () => Date;
}

/** Runs `fn` holding the folder's lock, then rebuilds MEMORY.md; returns fn's result and the index. */
async function changeMemory<T>(
  options: MemoryStoreOptions,
  fn: (topics: MemoryTopic[], usage: UsageFile) => Promise<{ result: T; usage: UsageFile; topics: MemoryTopic[] }>,
): Promise<{ result: T; index: RenderedIndex }> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  return withLock(join(options.dir, INDEX_FILE), async () => {
    // Checked before `fn` writes a topic file, so a link out stops the change with nothing written.
    const indexPath = await memoryFilePath(options.dir, INDEX_FILE);
    const usagePath = await memoryFilePath(options.dir, USAGE_FILE);
    // One listing per change: `fn` returns the topics as they are after it (the folder is ours while locked).
    const changed = await fn(await listMemoryTopics(options.dir), await readMemoryUsage(options.dir));
    const { result, usage, topics } = changed;
    const known = new Set(topics.map((topic) => topic.file));
    const kept: UsageFile = {
      topics: Object.fromEntries(Object.entries(usage.topics).filter(([file]) => known.has(file))),
    };
    const current = (await readMemoryFile(options.dir, INDEX_FILE)) ?? "";
    const index = renderIndex(current, orderByUse(topics, kept), options.limits);
    if (index.text !== current) await writeFileAtomic(indexPath, index.text);
    await writeFileAtomic(usagePath, `${JSON.stringify(kept, null, 2)}\n`);
    return { result, index };
  });
}

function findTopic(topics: readonly MemoryTopic[], name: string): MemoryTopic | null {
  const file = topicFileName(name);
  const wanted = name.trim().toLowerCase();
  return topics.find((topic) => topic.file === file) ?? topics.find((t) => t.name.toLowerCase() === wanted) ?? null;
}

function notFound(name: string, topics: readonly MemoryTopic[]): CtxError {
  const names = topics.map((topic) => topic.name).slice(0, 20);
  return new CtxError("NOT_FOUND", `no memory named "${name}"`, {
    hint: names.length === 0 ? "the memory folder has no topics yet" : `known: ${names.join(", ")}`,
  });
}

export interface MemoryWrite {
  name: string;
  description: string;
  type: MemoryType;
  content: string;
}

export async function writeMemory(options: MemoryStoreOptions, memory: MemoryWrite) {
  const redact = (text: string) => redactText(text, { allowlist: options.allowlist });
  const parts = [redact(memory.name), redact(memory.description), redact(memory.content)];
  const [name, description, content] = parts.map((part) => part.text) as [string, string, string];
  const redactions = parts.reduce((sum, part) => sum + part.findings.length, 0);
  return changeMemory(options, async (topics, usage) => {
    const existing = findTopic(topics, name);
    const file = existing?.file ?? topicFileName(name);
    const now = options.now();
    const front = {
      name: name.trim(),
      description: description.trim(),
      type: memory.type,
      modified: now.toISOString(),
    };
    await writeFileAtomic(await memoryFilePath(options.dir, file), renderTopicFile(front, content));
    return {
      result: { path: join(options.dir, file), file, created: existing === null, redactions },
      usage: recordUse(usage, file, now),
      topics: [...topics.filter((topic) => topic.file !== file), { ...front, file, content: content.trim() }],
    };
  });
}

/** The topic, counted as a use (which moves it up the index). */
export async function readMemory(options: MemoryStoreOptions, name: string) {
  return changeMemory(options, async (topics, usage) => {
    const topic = findTopic(topics, name);
    if (topic === null) throw notFound(name, topics);
    const next = recordUse(usage, topic.file, options.now());
    return { result: { topic, use: next.topics[topic.file] ?? { uses: 1, lastUsed: null } }, usage: next, topics };
  });
}

export async function deleteMemory(options: MemoryStoreOptions, name: string) {
  return changeMemory(options, async (topics, usage) => {
    const topic = findTopic(topics, name);
    if (topic === null) throw notFound(name, topics);
    await unlink(join(options.dir, topic.file));
    return { result: topic, usage, topics: topics.filter((entry) => entry.file !== topic.file) };
  });
}
