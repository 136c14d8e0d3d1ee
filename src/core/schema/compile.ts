// A zod schema's plan (./plan.ts) compiled into a plain validator, without zod: for the transcript line schemas that
// every capture and index sync runs over thousands of lines (zod's generic machinery cost more than the JSON parsing
// itself), and for the checks of the paths that must not load zod at all (the every-call hooks: the plans are
// generated at build time, build/compile-schemas.ts). The validator accepts exactly what the schema accepts and
// returns the same value zod returns (the same keys in the same order: the shape's first, then the unknown ones a
// loose object passes through, never `__proto__`); a checker built from it also reports zod's first issue (its code,
// path, expected type and message). ./compile.test.ts compares both with zod.
import type { $ZodType } from "zod/v4/core";
import type { SchemaIssue } from "./issue.ts";
import { type FieldPlan, planOf, type SchemaPlan, type StringCheck, UnsupportedSchema } from "./plan.ts";

/** What a compiled validator returns for a value the schema rejects. */
export const INVALID: unique symbol = Symbol("invalid");

export type CompiledSchema = (value: unknown) => unknown;

/** A value checked by a compiled checker: zod's value, or zod's first issue. */
export type SchemaCheck<T> = { ok: true; value: T } | { ok: false; issue: SchemaIssue };

/** The schema as a validator returning the parsed value or INVALID; null when it uses a kind not compiled here. */
export function compileSchema(schema: $ZodType): CompiledSchema | null {
  try {
    return compileValidator(planOf(schema));
  } catch (error) {
    if (error instanceof UnsupportedSchema) return null;
    throw error;
  }
}

/** A plan as a validator returning the parsed value or INVALID. */
export function compileValidator(plan: SchemaPlan): CompiledSchema {
  return compileNode(plan, newFailure());
}

/** A plan as a checker (compiled on its first use): the value, or the first issue zod would report. */
export function compiledChecker<T>(plan: SchemaPlan): (value: unknown) => SchemaCheck<T> {
  let check: ((value: unknown) => SchemaCheck<T>) | undefined;
  return (value) => {
    check ??= compileChecker<T>(plan);
    return check(value);
  };
}

function compileChecker<T>(plan: SchemaPlan): (value: unknown) => SchemaCheck<T> {
  const failure = newFailure();
  const validate = compileNode(plan, failure);
  return (value) => {
    const parsed = validate(value);
    if (parsed !== INVALID) return { ok: true, value: parsed as T };
    const { code, expected, message } = failure;
    const issue: SchemaIssue = { code, path: failure.path.toReversed(), message };
    return { ok: false, issue: expected === undefined ? issue : { ...issue, expected } };
  };
}

/**
 * Where the last rejection happened, written only on failure so that accepting costs nothing: the node that
 * rejects sets the issue (and empties the path), each enclosing object, record or array adds its key on the way out
 * (the path is built innermost first).
 */
interface Failure {
  code: string;
  expected: string | undefined;
  message: string;
  path: (string | number)[];
}

function newFailure(): Failure {
  return { code: "", expected: undefined, message: "", path: [] };
}

/** Records an issue (zod's message is "Invalid input" unless the schema gave its own) and rejects. */
function reject(failure: Failure, code: string, expected?: string, message = "Invalid input"): typeof INVALID {
  failure.code = code;
  failure.expected = expected;
  failure.message = message;
  failure.path.length = 0;
  return INVALID;
}

function compileNode(plan: SchemaPlan, failure: Failure): CompiledSchema {
  switch (plan.kind) {
    case "string":
      return compileString(plan.checks ?? [], failure);
    case "number":
      return plan.integer === true
        ? (value) => {
            if (typeof value !== "number" || !Number.isFinite(value)) return reject(failure, "invalid_type", "number");
            if (Number.isSafeInteger(value)) return value;
            if (!Number.isInteger(value)) return reject(failure, "invalid_type", "int");
            return reject(failure, value > 0 ? "too_big" : "too_small");
          }
        : (value) =>
            typeof value === "number" && Number.isFinite(value) ? value : reject(failure, "invalid_type", "number");
    case "boolean":
      return (value) => (typeof value === "boolean" ? value : reject(failure, "invalid_type", "boolean"));
    case "unknown":
      return (value) => value;
    case "literal": {
      const values = new Set(plan.values);
      return (value) => (values.has(value as never) ? value : reject(failure, "invalid_value"));
    }
    case "optional": {
      const inner = compileNode(plan.inner, failure);
      return (value) => (value === undefined ? undefined : inner(value));
    }
    case "nullable": {
      const inner = compileNode(plan.inner, failure);
      return (value) => (value === null ? null : inner(value));
    }
    case "union": {
      const options = plan.options.map((option) => compileNode(option, failure));
      return (value) => {
        for (const option of options) {
          const parsed = option(value);
          if (parsed !== INVALID) return parsed;
        }
        return reject(failure, "invalid_union");
      };
    }
    case "array":
      return compileArray(compileNode(plan.element, failure), failure);
    case "record":
      return compileRecord(compileNode(plan.value, failure), failure);
    case "object":
      return compileObject(plan.fields, plan.passThrough, failure);
  }
}

function compileString(checks: StringCheck[], failure: Failure): CompiledSchema {
  if (checks.length === 0)
    return (value) => (typeof value === "string" ? value : reject(failure, "invalid_type", "string"));
  const tests = checks.map((check): ((value: string) => boolean) => {
    if (check.check === "min_length") return (value) => value.length >= check.minimum || !reject(failure, "too_small");
    if (check.check === "max_length") return (value) => value.length <= check.maximum || !reject(failure, "too_big");
    const pattern = new RegExp(check.source, check.flags);
    return (value) => pattern.test(value) || !reject(failure, "invalid_format", undefined, check.message);
  });
  return (value) => {
    if (typeof value !== "string") return reject(failure, "invalid_type", "string");
    for (const test of tests) if (!test(value)) return INVALID;
    return value;
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function compileArray(element: CompiledSchema, failure: Failure): CompiledSchema {
  return (value) => {
    if (!Array.isArray(value)) return reject(failure, "invalid_type", "array");
    const out: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const parsed = element(value[index]);
      if (parsed === INVALID) {
        failure.path.push(index);
        return INVALID;
      }
      out[index] = parsed;
    }
    return out;
  };
}

/** Every own key in order; `__proto__` (a key JSON.parse can give) is left out: as a key it would set the prototype. */
function compileRecord(element: CompiledSchema, failure: Failure): CompiledSchema {
  return (value) => {
    if (!isPlainObject(value)) return reject(failure, "invalid_type", "record");
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === "__proto__") continue;
      const parsed = element(value[key]);
      if (parsed === INVALID) {
        failure.path.push(key);
        return INVALID;
      }
      out[key] = parsed;
    }
    return out;
  };
}

function compileObject(plans: FieldPlan[], passThrough: boolean, failure: Failure): CompiledSchema {
  const fields = plans.map(({ key, optional, plan }) => ({ key, optional, parse: compileNode(plan, failure) }));
  const keys = new Set(plans.map((field) => field.key));
  return (value) => {
    if (!isPlainObject(value)) return reject(failure, "invalid_type", "object");
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const present = field.key in value;
      if (!present && field.optional) continue;
      // Absent and required: zod reads it as undefined, which names the type expected, or (a schema that takes
      // undefined, such as unknown) is refused as absent.
      let parsed = field.parse(present ? value[field.key] : undefined);
      if (!present && parsed !== INVALID) parsed = reject(failure, "invalid_type", "nonoptional");
      if (parsed === INVALID) {
        failure.path.push(field.key);
        return INVALID;
      }
      out[field.key] = parsed;
    }
    if (passThrough) {
      for (const key in value) {
        if (keys.has(key) || key === "__proto__") continue;
        out[key] = value[key];
      }
    }
    return out;
  };
}
