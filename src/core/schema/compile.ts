// A zod schema compiled into a plain validator, for the transcript line schemas (entries.ts) that every hook capture
// and every index sync runs over thousands of lines: zod's generic machinery cost more than the JSON parsing itself.
// The compiled validator accepts exactly what the schema accepts and returns the same value zod returns (the same
// keys in the same order: the shape's first, then the unknown ones a loose object passes through, never
// `__proto__`). Only the schema kinds the line schemas use are compiled (objects with or without a pass-through of
// unknown keys, optional, nullable, string, finite number, boolean, literal, union, array, unknown); for any other
// kind, or a check (min, regex, …), compileSchema gives null and the caller keeps zod. fast-schema.test.ts compares
// the two on every fixture line and on mutated ones.
import type { $ZodType } from "zod/v4/core";

/** What a compiled validator returns for a value the schema rejects. */
export const INVALID: unique symbol = Symbol("invalid");

export type CompiledSchema = (value: unknown) => unknown;

interface Internals {
  def: {
    type: string;
    checks?: unknown[];
    shape?: Record<string, $ZodType>;
    catchall?: $ZodType;
    innerType?: $ZodType;
    values?: unknown[];
    options?: $ZodType[];
    element?: $ZodType;
    coerce?: boolean;
  };
  optin?: string;
  optout?: string;
}

class Unsupported extends Error {}

/** The schema as a validator returning the parsed value or INVALID; null when it uses a kind not compiled here. */
export function compileSchema(schema: $ZodType): CompiledSchema | null {
  try {
    return compile(schema);
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

function internals(schema: $ZodType): Internals {
  return (schema as unknown as { _zod: Internals })._zod;
}

function compile(schema: $ZodType): CompiledSchema {
  const { def } = internals(schema);
  if (def.checks !== undefined && def.checks.length > 0) throw new Unsupported(`checks on ${def.type}`);
  switch (def.type) {
    case "string":
      return (value) => (typeof value === "string" ? value : INVALID);
    case "number":
      if (def.coerce === true) throw new Unsupported("coerced number");
      return (value) => (typeof value === "number" && Number.isFinite(value) ? value : INVALID);
    case "boolean":
      if (def.coerce === true) throw new Unsupported("coerced boolean");
      return (value) => (typeof value === "boolean" ? value : INVALID);
    case "unknown":
      return (value) => value;
    case "literal": {
      const values = new Set(def.values);
      return (value) => (values.has(value) ? value : INVALID);
    }
    case "optional": {
      const inner = compile(required(def.innerType));
      return (value) => (value === undefined ? undefined : inner(value));
    }
    case "nullable": {
      const inner = compile(required(def.innerType));
      return (value) => (value === null ? null : inner(value));
    }
    case "union": {
      const options = (def.options ?? []).map(compile);
      return (value) => {
        for (const option of options) {
          const parsed = option(value);
          if (parsed !== INVALID) return parsed;
        }
        return INVALID;
      };
    }
    case "array": {
      const element = compile(required(def.element));
      return (value) => {
        if (!Array.isArray(value)) return INVALID;
        const out: unknown[] = new Array(value.length);
        for (let index = 0; index < value.length; index++) {
          const parsed = element(value[index]);
          if (parsed === INVALID) return INVALID;
          out[index] = parsed;
        }
        return out;
      };
    }
    case "object":
      return compileObject(def);
    default:
      throw new Unsupported(def.type);
  }
}

function required(schema: $ZodType | undefined): $ZodType {
  if (schema === undefined) throw new Unsupported("missing inner schema");
  return schema;
}

function compileObject(def: Internals["def"]): CompiledSchema {
  const shape = def.shape ?? {};
  if (Object.getOwnPropertySymbols(shape).length > 0) throw new Unsupported("symbol keys");
  const fields = Object.keys(shape)
    .filter((key) => key !== "__proto__")
    .map((key) => {
      const schema = shape[key] as $ZodType;
      const { optin, optout } = internals(schema);
      // Absent and optional: left out. Absent and required: rejected. Anything in between (defaults) is not compiled.
      if (optin !== undefined && !(optin === "optional" && optout === "optional")) {
        throw new Unsupported(`key "${key}" with optin ${optin}, optout ${optout}`);
      }
      return { key, parse: compile(schema), optional: optin === "optional" };
    });
  const keys = new Set(Object.keys(shape));
  let passThrough = false;
  if (def.catchall !== undefined) {
    if (internals(def.catchall).def.type !== "unknown") throw new Unsupported("catchall other than unknown");
    passThrough = true;
  }
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return INVALID;
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const present = field.key in input;
      if (!present) {
        if (field.optional) continue;
        return INVALID;
      }
      const parsed = field.parse(input[field.key]);
      if (parsed === INVALID) return INVALID;
      out[field.key] = parsed;
    }
    if (passThrough) {
      for (const key in input) {
        if (keys.has(key) || key === "__proto__") continue;
        out[key] = input[key];
      }
    }
    return out;
  };
}
