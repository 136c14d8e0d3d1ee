// What of a transcript entry extraction can use, so that capture redacts only that (the pre-compact and session-end
// budgets, docs/performance.md). Redaction runs before extraction, on whole strings, because extraction trims texts and
// a secret cut in half by a trim no longer matches its pattern. But extraction reads at most a short prefix of a tool's
// output, of its structured result and of its input (see the limits below): the rest of a 30 KB file listing was
// redacted only to be thrown away. So those strings are cut, before redaction, to that prefix plus a margin longer than
// any secret the redactor knows (a 4096-bit private key in PEM is ~3.2K characters): a secret that starts inside the
// prefix is still whole when redacted. Prompts, replies and compact summaries are read whole (statements are looked for
// in all of them) and are never cut.
// What extraction never reads at all is dropped rather than cut: a structured result's fields but for the four read
// (a Read's file content, an Edit's original file and patch), a tool input's fields but for the ones named below (an
// Edit's old and new strings, a Write's content), and every field but `type` of a block other than text, tool_use and
// tool_result (thinking and its signature, an image's base64). Dropping a field changes nothing else: each string is
// redacted on its own, under its own key.

import { isRecord } from "../json/record.ts";
import type { AssistantEntry, ParsedLine, SystemEntry, UserEntry } from "../transcript/entries.ts";
import { GIST_FIELDS, TOOL_RESULT_TEXT_CHARS } from "../transcript/text.ts";
import { CONTEXT_STATE_LIMITS } from "./schema.ts";

/** Longer than any secret's text: a secret starting before the prefix extraction reads ends before the cut. */
export const SECRET_MARGIN_CHARS = 8_192;
/**
 * A tool's output (tool_result blocks, and the structured result but for a plan): extraction reads its first
 * TOOL_RESULT_TEXT_CHARS (entryText), a failure's first 200 and a new task's id at its start. A failed call's
 * output is never cut (its text is unescaped before it is trimmed), nor are AskUserQuestion's older answers, read
 * whole for their "question"="answer" pairs.
 */
export const TOOL_OUTPUT_CHARS = TOOL_RESULT_TEXT_CHARS + SECRET_MARGIN_CHARS;
/** A tool's input and its structured result: the longest prefix read is a plan's. */
export const TOOL_FIELD_CHARS = CONTEXT_STATE_LIMITS.planChars + SECRET_MARGIN_CHARS;

/** The tool input fields extraction reads: the gist's (text.ts) and the tool effects' (activity.ts). */
export const TOOL_INPUT_FIELDS_READ: ReadonlySet<string> = new Set([
  ...GIST_FIELDS,
  "plan",
  "todos",
  "status",
  "activeForm",
]);
/** The content block types whose fields extraction reads (text.ts); of any other block it reads only the type. */
const BLOCK_TYPES_READ: ReadonlySet<string> = new Set(["text", "tool_use", "tool_result"]);

/** The envelope fields extraction reads (extract.ts, and entries.ts's isMainChain and isCompactBoundary). */
const ENVELOPE_READ = ["type", "uuid", "timestamp", "isSidechain", "cwd", "gitBranch", "version"] as const;
const USER_READ = [...ENVELOPE_READ, "message", "isMeta", "isCompactSummary", "toolUseResult"] as const;
const ASSISTANT_READ = [...ENVELOPE_READ, "message", "isApiErrorMessage"] as const;
const SYSTEM_READ = [...ENVELOPE_READ, "subtype", "compactMetadata"] as const;
const USER_MESSAGE_READ = ["content"] as const;
const ASSISTANT_MESSAGE_READ = ["id", "model", "content", "usage"] as const;
/** The usage fields contextTokensOf and the reply's output count read (all numbers). */
const USAGE_READ = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens"] as const;

/**
 * The entry as extraction reads it: its tool outputs, tool inputs and structured results cut (or dropped) to what
 * extraction can read, and only the fields it reads (no parentUuid, sessionId, requestId, slug, …: strings that
 * were redacted for nothing).
 */
export function boundForExtraction(line: ParsedLine): ParsedLine {
  if (!("type" in line)) return line; // a skipped line: nothing to read
  if (line.type === "user") {
    const bounded = boundUser(line);
    return { ...pick(bounded, USER_READ), message: pick(bounded.message, USER_MESSAGE_READ) } as UserEntry;
  }
  if (line.type === "assistant") {
    const bounded = boundAssistant(line);
    const message = pick(bounded.message, ASSISTANT_MESSAGE_READ);
    const usage = bounded.message.usage;
    if (isRecord(usage)) message.usage = pick(usage, USAGE_READ);
    return { ...pick(bounded, ASSISTANT_READ), message } as AssistantEntry;
  }
  if (line.type === "system") return pick(line, SYSTEM_READ) as SystemEntry;
  return line;
}

/** The record's own fields among `keys`, in a new record. */
function pick(record: object, keys: readonly string[]): Record<string, unknown> {
  const source = record as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(source, key)) picked[key] = source[key];
  return picked;
}

function boundUser(entry: UserEntry): UserEntry {
  if (entry.isCompactSummary === true) return entry;
  const content = entry.message.content;
  const boundedContent = Array.isArray(content)
    ? mapChanged(content, (block) => (isCuttableOutput(block) ? capStrings(block, TOOL_OUTPUT_CHARS) : typeOnly(block)))
    : content;
  const result = entry.toolUseResult === undefined ? undefined : boundResult(entry.toolUseResult);
  if (boundedContent === content && result === entry.toolUseResult) return entry;
  const { toolUseResult: _whole, ...rest } = entry;
  return {
    ...rest,
    message: { ...entry.message, content: boundedContent },
    ...(result === undefined ? {} : { toolUseResult: result }),
  };
}

function isCuttableOutput(block: unknown): boolean {
  if (!isRecord(block) || block.type !== "tool_result" || block.is_error === true) return false;
  const text = typeof block.content === "string" ? block.content : JSON.stringify(block.content ?? "");
  return !text.trimStart().startsWith("User has answered your questions");
}

/**
 * A structured result as extraction reads it (activity.ts, statements.ts): only a record's `plan` and `filePath`
 * (ExitPlanMode), `task.id` (TaskCreate) and `answers` (AskUserQuestion); undefined for anything else. The plan is
 * read up to a plan's length, the rest like an output.
 */
function boundResult(result: unknown): unknown {
  if (!isRecord(result)) return undefined;
  const { plan, filePath, task, answers } = result;
  const kept: Record<string, unknown> = {};
  if (plan !== undefined) kept.plan = capStrings(plan, TOOL_FIELD_CHARS);
  if (filePath !== undefined) kept.filePath = capStrings(filePath, TOOL_OUTPUT_CHARS);
  if (isRecord(task) && task.id !== undefined) kept.task = { id: capStrings(task.id, TOOL_OUTPUT_CHARS) };
  if (answers !== undefined) kept.answers = capStrings(answers, TOOL_OUTPUT_CHARS);
  const keys = Object.keys(kept);
  const unchanged = keys.length === Object.keys(result).length && keys.every((key) => kept[key] === result[key]);
  return unchanged ? result : kept;
}

/** A block extraction reads only the type of, as just its type; any other block as it is. */
function typeOnly<T>(block: T): T {
  if (!isRecord(block) || typeof block.type !== "string" || BLOCK_TYPES_READ.has(block.type)) return block;
  return Object.keys(block).length === 1 ? block : ({ type: block.type } as T);
}

/** A tool input with only the fields extraction reads, each cut to the longest prefix read (a plan's). */
function boundInput(input: unknown): unknown {
  if (!isRecord(input)) return capStrings(input, TOOL_FIELD_CHARS);
  let kept: Record<string, unknown> | null = null;
  for (const key of Object.keys(input)) {
    if (!TOOL_INPUT_FIELDS_READ.has(key)) {
      kept ??= { ...input };
      delete kept[key];
    }
  }
  return capStrings(kept ?? input, TOOL_FIELD_CHARS);
}

function boundAssistant(entry: AssistantEntry): AssistantEntry {
  const content = entry.message.content;
  if (!Array.isArray(content)) return entry;
  const bounded = mapChanged(content, (block) =>
    isRecord(block) && block.type === "tool_use" && block.input !== undefined
      ? withField(block, "input", boundInput(block.input))
      : typeOnly(block),
  );
  return bounded === content ? entry : { ...entry, message: { ...entry.message, content: bounded } };
}

/**
 * `value` with every string cut once it holds `max` characters other than whitespace; the same object when nothing
 * changed. Whitespace does not count because extraction trims and collapses it before taking its prefix: a
 * prefix of N characters of the trimmed or collapsed text always comes from the raw text's first N others.
 */
export function capStrings<T>(value: T, max: number): T {
  if (typeof value === "string") return cutAfterVisible(value, max) as T;
  if (Array.isArray(value)) return mapChanged(value, (item) => capStrings(item, max)) as T;
  if (!isRecord(value)) return value;
  let changed: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const capped = capStrings(item, max);
    if (capped !== item) {
      changed ??= { ...value };
      changed[key] = capped;
    }
  }
  return (changed ?? value) as T;
}

function mapChanged<T>(items: readonly T[], map: (item: T) => T): T[] {
  let changed: T[] | null = null;
  items.forEach((item, index) => {
    const mapped = map(item);
    if (mapped !== item) {
      changed ??= [...items];
      changed[index] = mapped;
    }
  });
  return changed ?? (items as T[]);
}

function withField<T extends object>(record: T, key: string, value: unknown): T {
  return (record as Record<string, unknown>)[key] === value ? record : { ...record, [key]: value };
}

function cutAfterVisible(text: string, max: number): string {
  if (text.length <= max) return text;
  let visible = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const space = code < 128 ? ASCII_WHITESPACE[code] === 1 : WHITESPACE.test(text[index] as string);
    if (!space) {
      visible += 1;
      if (visible === max) return text.slice(0, index + 1);
    }
  }
  return text;
}

/** What String.prototype.trim and `\s` treat as whitespace. */
const WHITESPACE = /\s/;
/** The ASCII part of WHITESPACE as a table (tab, line feed, vertical tab, form feed, carriage return, space). */
const ASCII_WHITESPACE = new Uint8Array(128);
for (const code of [9, 10, 11, 12, 13, 32]) ASCII_WHITESPACE[code] = 1;
