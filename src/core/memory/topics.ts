// Auto-memory in Claude Code's own format (pure): one topic file per memory, YAML frontmatter (name,
// description, type: user | feedback | project | reference) then the content, and a MEMORY.md index Claude
// Code loads at each session start, of which it reads only the first 200 lines / 25 KB. ctx owns one
// marked section of MEMORY.md (anything else in it is kept as written), lists topics most used first, and
// drops the least used entries from the index (never their files) until the whole file fits.

import { parse, stringify } from "yaml";
import * as z from "zod/mini";
import { CtxError } from "../../errors.ts";
import { isStopword, selectQueryTerms } from "../search/fts-query.ts";
import { tokenizeForSearch } from "../search/tokens.ts";
import { hasControlCharacter } from "../text/control-characters.ts";

export const MEMORY_TYPES = ["user", "feedback", "project", "reference"] as const;
export const MemoryTypeSchema = z.enum(MEMORY_TYPES);
export type MemoryType = z.infer<typeof MemoryTypeSchema>;

export const MemoryFrontmatterSchema = z.looseObject({
  name: z.string().check(z.minLength(1)),
  description: z.string(),
  type: MemoryTypeSchema,
  /** Claude Code writes it since v2.1.214 (ISO time). */
  modified: z.optional(z.string()),
});
export type MemoryFrontmatter = z.infer<typeof MemoryFrontmatterSchema>;

export interface MemoryTopic extends MemoryFrontmatter {
  /** The topic file's name inside the memory folder, e.g. `retry_policy.md`. */
  file: string;
  content: string;
}

export interface TopicUse {
  uses: number;
  lastUsed: string | null;
}
export const UsageFileSchema = z.object({
  topics: z.record(z.string(), z.object({ uses: z.int(), lastUsed: z.nullable(z.string()) })),
});
export type UsageFile = z.infer<typeof UsageFileSchema>;

export const INDEX_FILE = "MEMORY.md";
export const SECTION_START = "<!-- ctx:memory:start -->";
export const SECTION_END = "<!-- ctx:memory:end -->";
const MAX_NAME_CHARS = 80;

/**
 * The topic file for a memory name: lower case, runs of anything but letters and digits become `_`.
 * Names that could leave the folder (separators, `..`, control characters) are refused, not rewritten.
 */
export function topicFileName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > MAX_NAME_CHARS || /[/\\]|\.\./.test(trimmed) || hasControlCharacter(trimmed)) {
    throw new CtxError("USAGE", `"${name}" is not a usable memory name`, {
      hint: `1-${MAX_NAME_CHARS} characters, no slashes, backslashes or "..", e.g. "retry policy"`,
    });
  }
  const slug = trimmed
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (slug === "" || `${slug}.md` === INDEX_FILE.toLowerCase()) {
    throw new CtxError("USAGE", `"${name}" is not a usable memory name`, {
      hint: "use some letters or digits, and not the index's own name",
    });
  }
  return `${slug}.md`;
}

export function renderTopicFile(front: MemoryFrontmatter, content: string): string {
  return `---\n${stringify(front, { lineWidth: 0 }).trimEnd()}\n---\n\n${content.trim()}\n`;
}

/** A topic file's frontmatter and content; null when it has no valid frontmatter (not a memory topic). */
export function parseTopicFile(file: string, text: string): MemoryTopic | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (match === null) return null;
  let data: unknown;
  try {
    data = parse(match[1] ?? "");
  } catch {
    return null;
  }
  const front = z.safeParse(MemoryFrontmatterSchema, data);
  if (!front.success) return null;
  return { ...front.data, file, content: (match[2] ?? "").trim() };
}

/** Most used first, then most recently used, then by name. */
export function orderByUse(topics: readonly MemoryTopic[], usage: UsageFile): MemoryTopic[] {
  const use = (topic: MemoryTopic): TopicUse => usage.topics[topic.file] ?? { uses: 0, lastUsed: null };
  return [...topics].sort(
    (a, b) =>
      use(b).uses - use(a).uses ||
      (use(b).lastUsed ?? "").localeCompare(use(a).lastUsed ?? "") ||
      a.name.localeCompare(b.name),
  );
}

export function recordUse(usage: UsageFile, file: string, now: Date): UsageFile {
  const previous = usage.topics[file] ?? { uses: 0, lastUsed: null };
  return { topics: { ...usage.topics, [file]: { uses: previous.uses + 1, lastUsed: now.toISOString() } } };
}

export interface IndexLimits {
  maxLines: number;
  maxBytes: number;
}

export interface RenderedIndex {
  text: string;
  /** Topic files listed in ctx's section, in order. */
  listed: string[];
  /** Topic files left out of the index to keep it within the limits (their files stay). */
  trimmed: string[];
  lines: number;
  bytes: number;
}

/** HTML comment delimiters taken out of text listed inside ctx's section: a description holding
 *  `<!-- ctx:memory:end -->` would otherwise end the section early and leave fragments outside it. */
const inert = (text: string) => text.replace(/<!--|-->/g, "");

function indexLine(topic: MemoryTopic): string {
  const description = inert(topic.description.replace(/\s+/g, " ").trim());
  return `- [${inert(topic.name).replace(/[[\]]/g, "")}](${topic.file}) — ${description} (${topic.type})`;
}

/** The index text without ctx's section: what someone else (Claude itself) wrote there. */
export function foreignIndexText(current: string): { before: string; after: string } {
  // The last end marker: fragments an older ctx left after a marker inside a description go with the section.
  const start = current.indexOf(SECTION_START);
  const end = current.lastIndexOf(SECTION_END);
  if (start < 0 || end < start) return { before: current.trimEnd(), after: "" };
  return { before: current.slice(0, start).trimEnd(), after: current.slice(end + SECTION_END.length).trim() };
}

const countLines = (text: string) => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);
const ENCODER = new TextEncoder();
const byteLength = (text: string) => ENCODER.encode(text).length;

/**
 * MEMORY.md with ctx's section rebuilt from `ordered` topics (most used first). Topics already linked
 * elsewhere in the file are not listed twice. Entries are dropped from the end until the whole file is
 * within both limits.
 */
export function renderIndex(current: string, ordered: readonly MemoryTopic[], limits: IndexLimits): RenderedIndex {
  const { before, after } = foreignIndexText(current);
  const foreign = `${before}\n${after}`;
  const candidates = ordered.filter((topic) => !foreign.includes(`](${topic.file})`));
  const build = (topics: readonly MemoryTopic[]) => {
    const section = [SECTION_START, ...topics.map(indexLine), SECTION_END].join("\n");
    const head = before === "" ? "# Memory\n\n" : `${before}\n\n`;
    return `${head}${section}\n${after === "" ? "" : `\n${after}\n`}`;
  };
  let count = candidates.length;
  let text = build(candidates);
  while (count > 0 && (countLines(text) > limits.maxLines || byteLength(text) > limits.maxBytes)) {
    count -= 1;
    text = build(candidates.slice(0, count));
  }
  return {
    text,
    listed: candidates.slice(0, count).map((topic) => topic.file),
    trimmed: candidates.slice(count).map((topic) => topic.file),
    lines: countLines(text),
    bytes: byteLength(text),
  };
}

export interface SearchHit {
  topic: MemoryTopic;
  /** The share of the query's words the topic holds, 0 to 1 (a word in its name or description counts double). */
  score: number;
  snippet: string;
}

/** Below this share of the query's words a topic is a weaker match: listed apart, after the others. */
export const MEMORY_RELEVANCE_FLOOR = 0.5;

/**
 * Topics holding the query's content words, best first. Words are compared as the session index compares them
 * (core/search/tokens.ts: whole words, stemmed) without English function words, so "how are backups rotated"
 * looks for backups and rotation, not for "are" inside "software".
 */
export function searchTopics(topics: readonly MemoryTopic[], query: string, limit = 10): SearchHit[] {
  const terms = selectQueryTerms(tokenizeForSearch(query)).filter((term) => !isStopword(term));
  if (terms.length === 0) return [];
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !isStopword(word));
  const hits: SearchHit[] = [];
  for (const topic of topics) {
    const head = new Set(tokenizeForSearch(`${topic.name} ${topic.description}`).split(" "));
    const body = new Set(tokenizeForSearch(topic.content).split(" "));
    let weight = 0;
    for (const term of terms) weight += head.has(term) ? 2 : body.has(term) ? 1 : 0;
    if (weight === 0) continue;
    const lower = topic.content.toLowerCase();
    const found = [...words, ...terms].map((word) => lower.indexOf(word)).filter((i) => i >= 0);
    const at = found.length === 0 ? 0 : Math.min(...found);
    const snippet = topic.content
      .slice(Math.max(0, at - 60), at + 140)
      .replace(/\s+/g, " ")
      .trim();
    hits.push({ topic, score: Math.round((weight / (2 * terms.length)) * 100) / 100, snippet });
  }
  return hits.sort((a, b) => b.score - a.score || a.topic.name.localeCompare(b.topic.name)).slice(0, limit);
}
