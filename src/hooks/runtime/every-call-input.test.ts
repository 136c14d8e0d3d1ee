// The every-call hooks' hand-written input checks against the zod schemas they stand in for: on generated inputs
// (every field absent, right, or wrong in the ways JSON can be, plus unknown fields) both accept the same inputs,
// keep the same fields, and name the same first problem.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mostlyField } from "../../../tests/helpers/json-arbitraries.ts";
import { checkWithSchema } from "./define-hook.ts";
import { checkPostToolUseInput, checkStopInput } from "./every-call-input.ts";
import { PostToolUseInputSchema, StopInputSchema } from "./schemas.ts";

const jsonScalar = fc.oneof(
  fc.string(),
  fc.constantFrom("", "s-1", "/p/t.jsonl", "a\u0000b", "tab\there", "\u007f", "ok"),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const jsonValue = fc.oneof(jsonScalar, fc.array(jsonScalar, { maxLength: 3 }), fc.dictionary(fc.string(), jsonScalar));

/** Mostly well-formed inputs, each field sometimes missing or of another kind. */
function inputs(fields: Record<string, fc.Arbitrary<unknown>>) {
  const entries = Object.entries(fields).map(([name, good]) =>
    mostlyField(good, { other: jsonValue, goodWeight: 6 }).map((value) => [name, value] as const),
  );
  return fc
    .tuple(fc.tuple(...entries), fc.dictionary(fc.string({ minLength: 1 }), jsonValue, { maxKeys: 2 }))
    .map(([known, extra]) => {
      const object: Record<string, unknown> = { ...extra };
      for (const [name, value] of known) if (value !== undefined) object[name] = value;
      // Through JSON, as a hook's stdin arrives.
      return JSON.parse(JSON.stringify(object)) as unknown;
    });
}

const base = {
  session_id: fc.constantFrom("s-1", "abc", "", "x\u0001"),
  transcript_path: fc.constantFrom("/p/t.jsonl", "", "/p/\u0000"),
  cwd: fc.constantFrom("/p", "", "/p\n"),
  hook_event_name: fc.constantFrom("PostToolUse", "Stop"),
  permission_mode: fc.string(),
  prompt_id: fc.string(),
  agent_id: fc.string(),
  agent_type: fc.string(),
};

describe("every-call input checks", () => {
  it.each([
    {
      event: "PostToolUse",
      check: checkPostToolUseInput,
      schema: PostToolUseInputSchema,
      fields: {
        tool_name: fc.constantFrom("Bash", "Read"),
        tool_input: jsonValue,
        tool_response: jsonValue,
        tool_use_id: fc.string(),
        duration_ms: fc.integer({ min: 0 }),
      },
    },
    {
      event: "Stop",
      check: checkStopInput,
      schema: StopInputSchema,
      fields: { stop_hook_active: fc.boolean(), last_assistant_message: fc.oneof(fc.string(), fc.constant(null)) },
    },
  ])("$event: the same verdict, input and first problem as its zod schema", ({ check, schema, fields }) => {
    fc.assert(
      fc.property(fc.oneof(inputs({ ...base, ...fields }), jsonValue), (raw) => {
        expect(check(raw)).toEqual(checkWithSchema(schema(), raw));
      }),
      { numRuns: 2_000 },
    );
  });

  it("names the problems a person would need to fix", () => {
    expect(checkPostToolUseInput({ session_id: "s", transcript_path: "/t", cwd: "/p", hook_event_name: "x" })).toEqual({
      ok: false,
      problem: "tool_name: expected string",
    });
    expect(
      checkStopInput({ session_id: "a\u0000", transcript_path: "/t", cwd: "/p", hook_event_name: "Stop" }),
    ).toEqual({ ok: false, problem: "session_id: holds a control character" });
    expect(checkStopInput("text")).toEqual({ ok: false, problem: "input: expected object" });
  });
});
