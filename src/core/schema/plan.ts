// A zod schema described as plain data (a plan), from which ./compile.ts writes plain JavaScript. Read from zod's
// own description of the schema (`_zod.def`, not part of zod's public API: ./checker.test.ts and ./compile.test.ts
// hold the compiled result to zod on every kind described here). Only the kinds and checks ctx's schemas use are
// described; any other gives UnsupportedSchema (the transcript reader then keeps zod; the build fails).
import type { $ZodType } from "zod/v4/core";

export type LiteralValue = string | number | boolean | null;

/** A check on a string, run in order after its type: the issue zod reports for each is in ./compile.ts. */
export type StringCheck =
  | { check: "min_length"; minimum: number }
  | { check: "max_length"; maximum: number }
  | { check: "regex"; source: string; flags: string; message: string };

export type SchemaPlan =
  | { kind: "string"; checks?: StringCheck[] }
  /** Finite numbers; `integer`: safe integers only (z.int()). */
  | { kind: "number"; integer?: true }
  | { kind: "boolean" }
  | { kind: "unknown" }
  /** z.literal and z.enum: one of these values. */
  | { kind: "literal"; values: LiteralValue[] }
  | { kind: "optional"; inner: SchemaPlan }
  | { kind: "nullable"; inner: SchemaPlan }
  | { kind: "union"; options: SchemaPlan[] }
  | { kind: "array"; element: SchemaPlan }
  /** z.record(z.string(), value). */
  | { kind: "record"; value: SchemaPlan }
  /** `passThrough`: unknown keys kept (z.looseObject), else dropped (z.object). */
  | { kind: "object"; fields: FieldPlan[]; passThrough: boolean };

export interface FieldPlan {
  key: string;
  /** Absent is fine (left out of the value); a required key that is absent is rejected. */
  optional: boolean;
  plan: SchemaPlan;
}

export class UnsupportedSchema extends Error {}

interface Internals {
  def: {
    type: string;
    checks?: { _zod: { def: CheckDef } }[];
    check?: string;
    format?: string;
    shape?: Record<string, $ZodType>;
    catchall?: $ZodType;
    innerType?: $ZodType;
    values?: unknown[];
    entries?: Record<string, unknown>;
    options?: $ZodType[];
    element?: $ZodType;
    keyType?: $ZodType;
    valueType?: $ZodType;
    coerce?: boolean;
  };
  optin?: string;
  optout?: string;
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: RegExp;
  error?: (issue: unknown) => unknown;
}

/** The schema's plan; throws UnsupportedSchema when it uses a kind or check not described here. */
export function planOf(schema: $ZodType): SchemaPlan {
  const { def } = internals(schema);
  const checks = def.checks ?? [];
  if (def.type === "string") return stringPlan(def, checks);
  if (checks.length > 0) throw new UnsupportedSchema(`checks on ${def.type}`);
  switch (def.type) {
    case "number":
      if (def.coerce === true) throw new UnsupportedSchema("coerced number");
      if (def.check === undefined) return { kind: "number" };
      if (def.check === "number_format" && def.format === "safeint") return { kind: "number", integer: true };
      throw new UnsupportedSchema(`number ${def.check} ${def.format ?? ""}`);
    case "boolean":
      if (def.coerce === true) throw new UnsupportedSchema("coerced boolean");
      return { kind: "boolean" };
    case "unknown":
      return { kind: "unknown" };
    case "literal":
      return { kind: "literal", values: literalValues(def.values ?? []) };
    case "enum":
      return { kind: "literal", values: literalValues(Object.values(def.entries ?? {})) };
    case "optional":
      return { kind: "optional", inner: planOf(required(def.innerType)) };
    case "nullable":
      return { kind: "nullable", inner: planOf(required(def.innerType)) };
    case "union":
      return unionPlan((def.options ?? []).map(planOf));
    case "array":
      return { kind: "array", element: planOf(required(def.element)) };
    case "record": {
      const keyDef = internals(required(def.keyType)).def;
      if (keyDef.type !== "string" || (keyDef.checks ?? []).length > 0 || keyDef.format !== undefined) {
        throw new UnsupportedSchema("record keys other than plain strings");
      }
      return { kind: "record", value: planOf(required(def.valueType)) };
    }
    case "object":
      return objectPlan(def);
    default:
      throw new UnsupportedSchema(def.type);
  }
}

function internals(schema: $ZodType): Internals {
  return (schema as unknown as { _zod: Internals })._zod;
}

function required(schema: $ZodType | undefined): $ZodType {
  if (schema === undefined) throw new UnsupportedSchema("missing inner schema");
  return schema;
}

function stringPlan(def: Internals["def"], checks: { _zod: { def: CheckDef } }[]): SchemaPlan {
  if (def.coerce === true || def.format !== undefined) throw new UnsupportedSchema("string format or coercion");
  const planned = checks.map(({ _zod: { def: check } }): StringCheck => {
    if (check.check === "min_length" && check.minimum !== undefined)
      return { check: "min_length", minimum: check.minimum };
    if (check.check === "max_length" && check.maximum !== undefined)
      return { check: "max_length", maximum: check.maximum };
    if (check.check === "string_format" && check.format === "regex" && check.pattern !== undefined) {
      const { source, flags } = check.pattern;
      // A global or sticky regex keeps state between tests, and zod tests it as is: not compiled.
      if (/[gy]/.test(flags)) throw new UnsupportedSchema(`regex flags ${flags}`);
      return { check: "regex", source, flags, message: messageOf(check) };
    }
    throw new UnsupportedSchema(`string check ${check.check}`);
  });
  return planned.length === 0 ? { kind: "string" } : { kind: "string", checks: planned };
}

/** The message a check's `error` option gives (a constant in ctx's schemas), else zod's default. */
function messageOf(check: CheckDef): string {
  const given = check.error?.({ code: "invalid_format", format: check.format, origin: "string" });
  if (typeof given === "string") return given;
  const message = (given as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : "Invalid input";
}

function literalValues(values: unknown[]): LiteralValue[] {
  for (const value of values) {
    const plain = value === null || ["string", "number", "boolean"].includes(typeof value);
    if (!plain || (typeof value === "number" && !Number.isFinite(value)))
      throw new UnsupportedSchema(`literal ${String(value)}`);
  }
  return values as LiteralValue[];
}

/**
 * zod reports a union whose options all fail as one `invalid_union`, unless exactly one option failed on a check
 * alone (a string too short, say), when it reports that option's issues. Options without checks always fail on their
 * type, so the first case is the only one: those are compiled, the others not.
 */
function unionPlan(options: SchemaPlan[]): SchemaPlan {
  if (options.some(holdsChecks)) throw new UnsupportedSchema("checks inside a union's option");
  return { kind: "union", options };
}

function holdsChecks(plan: SchemaPlan): boolean {
  switch (plan.kind) {
    case "string":
      return (plan.checks ?? []).length > 0;
    case "number":
      return plan.integer === true;
    case "optional":
    case "nullable":
      return holdsChecks(plan.inner);
    case "union":
      return plan.options.some(holdsChecks);
    case "array":
      return holdsChecks(plan.element);
    case "record":
      return holdsChecks(plan.value);
    case "object":
      return plan.fields.some((field) => holdsChecks(field.plan));
    default:
      return false;
  }
}

function objectPlan(def: Internals["def"]): SchemaPlan {
  const shape = def.shape ?? {};
  if (Object.getOwnPropertySymbols(shape).length > 0) throw new UnsupportedSchema("symbol keys");
  const fields = Object.keys(shape)
    .filter((key) => key !== "__proto__")
    .map((key): FieldPlan => {
      const schema = shape[key] as $ZodType;
      const { optin, optout } = internals(schema);
      // Absent and optional: left out. Absent and required: rejected. Anything in between (defaults) is not compiled.
      if (optin !== undefined && !(optin === "optional" && optout === "optional")) {
        throw new UnsupportedSchema(`key "${key}" with optin ${optin}, optout ${optout}`);
      }
      return { key, optional: optin === "optional", plan: planOf(schema) };
    });
  let passThrough = false;
  if (def.catchall !== undefined) {
    if (internals(def.catchall).def.type !== "unknown") throw new UnsupportedSchema("catchall other than unknown");
    passThrough = true;
  }
  return { kind: "object", fields, passThrough };
}
