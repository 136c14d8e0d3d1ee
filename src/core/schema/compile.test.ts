// The checkers compiled from the transcript line schemas (../transcript/entry-schemas.compiled.ts, what the transcript
// reader runs) against zod itself: the same verdict and the same value, keys in the same order, on every line of
// every transcript fixture and on those lines with each field in turn removed or replaced by a value of another type.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import type { $ZodType } from "zod/v4/core";
import { LINE_CHECKERS } from "../transcript/entries.ts";
import { LINE_SCHEMAS } from "../transcript/entry-schemas.ts";
import { compileChecker, type SchemaCheck } from "./compile.ts";
import { planOf, UnsupportedSchema } from "./plan.ts";

const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures");
const SCHEMAS: Record<string, $ZodType> = LINE_SCHEMAS;
// The reader's own table of compiled checkers, so what is compared is what runs.
const CHECKERS: Record<string, (value: unknown) => SchemaCheck<unknown>> = LINE_CHECKERS;

/** A value's shape with key order, undefined and prototypes made visible, for an exact comparison. */
function describeValue(value: unknown): unknown {
  if (Array.isArray(value)) return ["array", value.map(describeValue)];
  if (typeof value === "object" && value !== null) {
    const plain = Object.getPrototypeOf(value) === Object.prototype;
    return ["object", plain, Object.keys(value).map((key) => [key, describeValue((value as never)[key])])];
  }
  return [typeof value, value === undefined ? null : value];
}

function viaZod(schema: $ZodType, value: unknown): unknown {
  const parsed = z.safeParse(schema, value);
  return parsed.success ? describeValue(parsed.data) : "invalid";
}

function viaCompiled(type: string, value: unknown): unknown {
  const checked = (CHECKERS[type] as (value: unknown) => SchemaCheck<unknown>)(value);
  return checked.ok ? describeValue(checked.value) : "invalid";
}

function viaPlan(schema: $ZodType, value: unknown): unknown {
  const checked = compileChecker(planOf(schema))(value);
  return checked.ok ? describeValue(checked.value) : "invalid";
}

function fixtureLines(): unknown[] {
  const files = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".jsonl"));
  const values: unknown[] = [];
  for (const file of files) {
    for (const line of readFileSync(join(FIXTURES, file), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        values.push(JSON.parse(line));
      } catch {
        // A malformed line never reaches a schema.
      }
    }
  }
  return values;
}

const REPLACEMENTS: unknown[] = [null, 0, Number.POSITIVE_INFINITY, "x", true, [], {}, [{}], [{ type: 3 }], undefined];

/** Copies of `value` with one field (up to `depth` levels down) removed or replaced, each in turn. */
function* mutations(value: unknown, depth: number): Generator<unknown> {
  if (depth === 0 || typeof value !== "object" || value === null) return;
  const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  for (const key of keys) {
    const child = (value as Record<string | number, unknown>)[key];
    const copy = () =>
      (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
    const removed = copy();
    delete removed[key];
    yield removed;
    for (const replacement of REPLACEMENTS) {
      const replaced = copy();
      replaced[key] = replacement;
      yield replaced;
    }
    for (const mutated of mutations(child, depth - 1)) {
      const nested = copy();
      nested[key] = mutated;
      yield nested;
    }
  }
}

describe("the compiled transcript line checkers", () => {
  const lines = fixtureLines();

  it("check every line type the reader knows", () => {
    expect(Object.keys(CHECKERS).sort()).toEqual(Object.keys(SCHEMAS).sort());
  });

  it("gives zod's verdict and value on every fixture line", () => {
    let compared = 0;
    for (const value of lines) {
      const type = (value as { type?: unknown }).type;
      if (typeof type !== "string" || !Object.hasOwn(SCHEMAS, type)) continue;
      const schema = SCHEMAS[type] as $ZodType;
      expect(viaCompiled(type, value)).toEqual(viaZod(schema, value));
      compared += 1;
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("gives zod's verdict and value on fixture lines with fields removed or of another type", () => {
    const seen = new Map<string, number>();
    let invalid = 0;
    for (const value of lines) {
      const type = (value as { type?: unknown }).type;
      if (typeof type !== "string" || !Object.hasOwn(SCHEMAS, type)) continue;
      // A few lines of each type (their mutations number in the thousands each).
      const count = seen.get(type) ?? 0;
      if (count >= 12) continue;
      seen.set(type, count + 1);
      const schema = SCHEMAS[type] as $ZodType;
      for (const mutated of mutations(value, 4)) {
        const expected = viaZod(schema, mutated);
        if (expected === "invalid") invalid += 1;
        expect(viaCompiled(type, mutated)).toEqual(expected);
      }
    }
    expect(invalid).toBeGreaterThan(1000);
  });

  it("matches zod on JSON's edge cases: __proto__ keys, infinite numbers, unknown keys before known ones", () => {
    const cases = [
      '{"zz":1,"type":"user","uuid":"u","__proto__":{"a":1},"message":{"__proto__":[],"content":"hi","role":"user"}}',
      '{"type":"assistant","uuid":"u","message":{"content":[],"usage":{"input_tokens":1e999}}}',
      '{"type":"assistant","uuid":"u","message":{"content":[{"type":"text","text":"a","__proto__":1}],"usage":null}}',
      '{"type":"system","compactMetadata":{"preTokens":null,"zz":[1]},"content":{"x":1}}',
      '{"type":"custom-title","customTitle":"T","sessionId":"s"}',
      '{"type":"ai-title","aiTitle":5}',
      '{"type":"summary"}',
    ];
    for (const text of cases) {
      const value = JSON.parse(text) as { type: string };
      const schema = SCHEMAS[value.type] as $ZodType;
      expect(viaCompiled(value.type, value)).toEqual(viaZod(schema, value));
    }
  });

  it("refuses what it does not compile (build/compile-schemas.ts then fails the build)", () => {
    expect(() => planOf(z.string().check(z.email()))).toThrow(UnsupportedSchema);
    expect(() => planOf(z.object({ when: z.date() }))).toThrow(UnsupportedSchema);
    expect(() => planOf(z.object({ n: z._default(z.number(), 1) }))).toThrow(UnsupportedSchema);
    expect(() => planOf(z.object({ a: z.string() }))).not.toThrow();
  });

  it("a plain object drops unknown keys as zod does", () => {
    const schema = z.object({ a: z.string(), b: z.optional(z.nullable(z.number())) });
    for (const value of [{ a: "x", c: 1 }, { b: null, a: "y" }, { a: 1 }, { b: 2 }, [], null]) {
      expect(viaPlan(schema, value)).toEqual(viaZod(schema, value));
    }
  });
});
