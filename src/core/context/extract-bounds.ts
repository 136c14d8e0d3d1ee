// What of a transcript entry extraction can use, so that capture redacts only that (DESIGN.md: pre-compact and
// session-end budgets). Redaction runs before extraction, on whole strings, because extraction trims texts and a
// secret cut in half by a trim no longer matches its pattern. But extraction reads at most a short prefix of a
// tool's output, of its structured result and of its input (see the limits below): the rest of a 30 KB file
// listing was redacted only to be thrown away. So those strings are cut, before redaction, to that prefix plus a
// margin longer than any secret the redactor knows (a 4096-bit private key in PEM is ~3.2K characters): a secret
// that starts inside the prefix is still whole when redacted. Prompts, replies and compact summaries are read
// whole (statements are looked for in all of them) and are never cut.
import type { AssistantEntry, ParsedLine, UserEntry } from "../transcript/entries.ts";
import { TOOL_RESULT_TEXT_CHARS } from "../transcript/text.ts";
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

/** The entry with its tool outputs, tool inputs and structured results cut to what extraction can read. */
export function boundForExtraction(line: ParsedLine): ParsedLine {
  if (!("type" in line)) return line; // a skipped line: nothing to read
  if (line.type === "user") return boundUser(line);
  if (line.type === "assistant") return boundAssistant(line);
  return line;
}

function boundUser(entry: UserEntry): UserEntry {
  if (entry.isCompactSummary === true) return entry;
  const content = entry.message.content;
  const boundedContent = Array.isArray(content)
    ? mapChanged(content, (block) => (isCuttableOutput(block) ? capStrings(block, TOOL_OUTPUT_CHARS) : block))
    : content;
  const result = entry.toolUseResult === undefined ? undefined : boundResult(entry.toolUseResult);
  if (boundedContent === content && result === entry.toolUseResult) return entry;
  return {
    ...entry,
    message: { ...entry.message, content: boundedContent },
    ...(result === undefined ? {} : { toolUseResult: result }),
  };
}

function isCuttableOutput(block: unknown): boolean {
  if (!isRecord(block) || block.type !== "tool_result" || block.is_error === true) return false;
  const text = typeof block.content === "string" ? block.content : JSON.stringify(block.content ?? "");
  return !text.trimStart().startsWith("User has answered your questions");
}

/** A structured result: its `plan` (ExitPlanMode) read up to a plan's length, the rest like an output. */
function boundResult(result: unknown): unknown {
  if (!isRecord(result)) return capStrings(result, TOOL_OUTPUT_CHARS);
  const { plan, ...rest } = result;
  const bounded = capStrings(rest, TOOL_OUTPUT_CHARS);
  const boundedPlan = capStrings(plan, TOOL_FIELD_CHARS);
  if (bounded === rest && boundedPlan === plan) return result;
  return plan === undefined ? bounded : { ...bounded, plan: boundedPlan };
}

function boundAssistant(entry: AssistantEntry): AssistantEntry {
  const content = entry.message.content;
  if (!Array.isArray(content)) return entry;
  const bounded = mapChanged(content, (block) =>
    isRecord(block) && block.type === "tool_use" && block.input !== undefined
      ? withField(block, "input", capStrings(block.input, TOOL_FIELD_CHARS))
      : block,
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function cutAfterVisible(text: string, max: number): string {
  if (text.length <= max) return text;
  let visible = 0;
  for (let index = 0; index < text.length; index++) {
    if (!WHITESPACE.test(text[index] as string)) {
      visible += 1;
      if (visible === max) return text.slice(0, index + 1);
    }
  }
  return text;
}

/** What String.prototype.trim and `\s` treat as whitespace. */
const WHITESPACE = /\s/;
