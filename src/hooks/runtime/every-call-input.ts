// The input checks of the every-call hooks (PostToolUse, Stop), written out by hand: zod costs a process that runs
// after every tool call several milliseconds to load and build (bench/run.ts hooks), more than the whole rest of
// its work. They accept, keep and refuse exactly what ./schemas.ts's zod schemas do, with the same first problem
// (./every-call-input.test.ts compares them on generated inputs).
import type { PostToolUseInput, StopInput } from "./schemas.ts";
import type { HookInputCheck } from "./types.ts";

type FieldCheck = (value: unknown) => string | null;

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

const string: FieldCheck = (value) => (typeof value === "string" ? null : "expected string");
/** An id or path: a string with no control character (and, for ids, not empty). */
const clean =
  (minLength: number): FieldCheck =>
  (value) => {
    if (typeof value !== "string") return "expected string";
    if (value.length < minLength) return "too_small";
    return CONTROL_CHARACTER.test(value) ? "holds a control character" : null;
  };
const optional =
  (check: FieldCheck): FieldCheck =>
  (value) =>
    value === undefined ? null : check(value);
const nullable =
  (check: FieldCheck): FieldCheck =>
  (value) =>
    value === null ? null : check(value);
const number: FieldCheck = (value) => (typeof value === "number" && Number.isFinite(value) ? null : "expected number");
const boolean: FieldCheck = (value) => (typeof value === "boolean" ? null : "expected boolean");
const anything: FieldCheck = () => null;

const BASE: Record<string, FieldCheck> = {
  session_id: clean(1),
  transcript_path: clean(0),
  cwd: clean(1),
  hook_event_name: string,
  permission_mode: optional(string),
  prompt_id: optional(string),
  agent_id: optional(string),
  agent_type: optional(string),
};

const POST_TOOL_USE: Record<string, FieldCheck> = {
  ...BASE,
  tool_name: string,
  tool_input: optional(anything),
  tool_response: optional(anything),
  tool_use_id: optional(string),
  duration_ms: optional(number),
};

const STOP: Record<string, FieldCheck> = {
  ...BASE,
  stop_hook_active: optional(boolean),
  last_assistant_message: optional(nullable(string)),
};

/** The input as is (unknown fields kept: Claude Code adds fields between versions), or its first problem. */
function checkFields<T>(fields: Record<string, FieldCheck>, raw: unknown): HookInputCheck<T> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return { ok: false, problem: "input: expected object" };
  const record = raw as Record<string, unknown>;
  for (const [name, check] of Object.entries(fields)) {
    const problem = check(record[name]);
    if (problem !== null) return { ok: false, problem: `${name}: ${problem}` };
  }
  return { ok: true, input: { ...record } as T };
}

export const checkPostToolUseInput = (raw: unknown) => checkFields<PostToolUseInput>(POST_TOOL_USE, raw);
export const checkStopInput = (raw: unknown) => checkFields<StopInput>(STOP, raw);
