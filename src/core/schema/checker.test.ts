// The checkers compiled from zod schemas (./compile.ts) against zod itself, on the schemas that the paths loading no
// zod check with (build/compile-schemas.ts) and on each kind and check on its own: the same verdict, the same value
// (keys in the same order), and the same first problem as the hooks tell it (./issue.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import { COMPILED_SCHEMAS } from "../../../build/compile-schemas.ts";
import { jsonFor } from "../../../tests/helpers/json-arbitraries.ts";
import { compileChecker } from "./compile.ts";
import { describeIssue, type SchemaIssue } from "./issue.ts";
import { planOf, UnsupportedSchema } from "./plan.ts";

/** A value's shape with key order, undefined and prototypes made visible, for an exact comparison. */
function describeValue(value: unknown): unknown {
  if (Array.isArray(value)) return ["array", value.map(describeValue)];
  if (typeof value === "object" && value !== null) {
    const plain = Object.getPrototypeOf(value) === Object.prototype;
    return ["object", plain, Object.keys(value).map((key) => [key, describeValue((value as never)[key])])];
  }
  return [typeof value, value === undefined ? null : value];
}

const outcome = (issue: SchemaIssue) => ({ problem: describeIssue(issue), code: issue.code, path: issue.path });

function viaZod(schema: $ZodType, value: unknown) {
  const parsed = z.safeParse(schema, value);
  if (parsed.success) return { value: describeValue(parsed.data) };
  return outcome(parsed.error.issues[0] as SchemaIssue);
}

function viaChecker(schema: $ZodType, value: unknown) {
  const checked = compileChecker(planOf(schema))(value);
  return checked.ok ? { value: describeValue(checked.value) } : outcome(checked.issue);
}

const compiledSchemas = await Promise.all(
  Object.entries(COMPILED_SCHEMAS).flatMap(([source, names]) =>
    names.map(async (name) => {
      const path = new URL(`../../../${source}`, import.meta.url).href;
      const exported = ((await import(/* @vite-ignore */ path)) as Record<string, unknown>)[name];
      const schema = (typeof exported === "function" ? exported() : exported) as $ZodType;
      return { name, schema };
    }),
  ),
);

describe("compiled checkers", () => {
  it.each(compiledSchemas)("$name: zod's verdict, value and first problem on generated input", ({ schema }) => {
    let accepted = 0;
    fc.assert(
      fc.property(jsonFor(planOf(schema)), (generated) => {
        // Through JSON, as a hook's stdin or a file arrives.
        const value = JSON.parse(JSON.stringify(generated ?? null)) as unknown;
        const expected = viaZod(schema, value);
        expect(viaChecker(schema, value)).toEqual(expected);
        if ("value" in expected) accepted += 1;
      }),
      { numRuns: 1_500 },
    );
    // Both outcomes were exercised, not only refusals.
    expect(accepted).toBeGreaterThan(30);
  });

  it.each([
    ["an integer", z.int(), [1, -3, 1.5, 2 ** 53, -(2 ** 60), 1e300, Number.NaN, Number.POSITIVE_INFINITY, "1", null]],
    ["a number", z.number(), [0, 1.5, Number.NaN, Number.NEGATIVE_INFINITY, "1", true]],
    ["a bounded string", z.string().check(z.minLength(2), z.maxLength(3)), ["", "a", "ab", "abcd", 5]],
    ["a regex with a message", z.string().check(z.regex(/^a+$/, { error: "not a's" })), ["aa", "ab", ""]],
    ["a regex without one", z.string().check(z.regex(/^a+$/i)), ["AA", "b"]],
    ["an enum", z.enum(["x", "y"]), ["x", "z", 1]],
    ["a literal", z.literal(1), [1, 2, "1"]],
    ["a union", z.union([z.string(), z.object({ a: z.number() })]), ["s", { a: 1 }, { a: "1" }, 3]],
    ["a record", z.record(z.string(), z.object({ n: z.int() })), [{}, { a: { n: 1 } }, { a: { n: "1" } }, [], null]],
    ["an array", z.array(z.nullable(z.boolean())), [[], [true, null], [true, 1], {}]],
    ["a required unknown", z.object({ a: z.unknown(), b: z.string() }), [{}, { a: undefined, b: "" }, { a: 1 }]],
    ["nested paths", z.object({ a: z.array(z.object({ b: z.string() })) }), [{ a: [{ b: "" }, { b: 1 }] }]],
    ["a loose object", z.looseObject({ a: z.optional(z.string()) }), [{ z: 1, a: "x" }, { a: null }, "x"]],
  ] as const)("%s: zod's verdict, value and first problem", (_, schema, values) => {
    for (const value of values) expect(viaChecker(schema, value)).toEqual(viaZod(schema, value));
  });

  it("tells a problem as the hooks do", () => {
    const schema = z.looseObject({ session_id: z.string().check(z.regex(/^\S*$/, { error: "holds a space" })) });
    const check = compileChecker(planOf(schema));
    const problem = (value: unknown) => {
      const checked = check(value);
      return checked.ok ? null : describeIssue(checked.issue);
    };
    expect(problem({})).toBe("session_id: expected string");
    expect(problem({ session_id: "a b" })).toBe("session_id: holds a space");
    expect(problem([])).toBe("input: expected object");
    expect(problem({ session_id: "ab" })).toBeNull();
  });

  it("a record leaves a __proto__ key out rather than setting the prototype", () => {
    const check = compileChecker(planOf(z.record(z.string(), z.int())));
    const checked = check(JSON.parse('{"__proto__":1,"a":2}'));
    expect(checked.ok && describeValue(checked.value)).toEqual(describeValue({ a: 2 }));
  });

  it("refuses what it cannot compile exactly, so the schema is never compiled wrong", () => {
    for (const schema of [
      z.object({ when: z.date() }),
      z.object({ n: z._default(z.number(), 1) }),
      z.string().check(z.email()),
      z.number().check(z.minimum(0)),
      z.string().check(z.regex(/a/g)),
      z.record(z.string().check(z.minLength(1)), z.string()),
      // zod reports a union's option that failed on a check alone by that option's issues.
      z.union([z.string().check(z.minLength(3)), z.number()]),
      z.union([z.int(), z.string()]),
      z.object({ a: z.string() }).check(z.refine(() => true)),
    ]) {
      expect(() => planOf(schema as $ZodType)).toThrow(UnsupportedSchema);
    }
  });
});
