// Generated JSON for the property tests that hold a checker compiled from a zod schema (src/core/schema/) to zod
// itself: values of a schema's plan, each field mostly right, sometimes of another kind, absent, or hostile (control
// characters, lengths at a bound, integers past the safe range), plus unknown fields.
import fc from "fast-check";
import type { SchemaPlan } from "../../src/core/schema/plan.ts";

/** A value of some JSON kind: what a damaged or foreign file, or a later Claude Code, may hold in a field. */
export const otherJsonKind = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);

/** A field: mostly `good`, sometimes `other`, sometimes absent (JSON drops an undefined). */
export function mostlyField(
  good: fc.Arbitrary<unknown>,
  { other = otherJsonKind, goodWeight = 12 }: { other?: fc.Arbitrary<unknown>; goodWeight?: number } = {},
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: goodWeight, arbitrary: good },
    { weight: 1, arbitrary: other },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** A key of a record or an unknown field (never `__proto__`: JSON.parse makes it an own key, zod a prototype). */
const key = fc.string({ maxLength: 8 }).filter((text) => text !== "__proto__");

const hostileText = fc.constantFrom("", "s-1", "/p/t.jsonl", "a\u0000b", "tab\there", "line\n", "\u007f", "\u001f");

function stringFor(plan: Extract<SchemaPlan, { kind: "string" }>): fc.Arbitrary<string> {
  const bounds = (plan.checks ?? []).flatMap((check) =>
    check.check === "min_length" ? [check.minimum] : check.check === "max_length" ? [check.maximum] : [],
  );
  const atBounds = bounds.flatMap((bound) =>
    [bound - 1, bound, bound + 1].filter((length) => length >= 0).map((length) => fc.constant("x".repeat(length))),
  );
  return fc.oneof(fc.string(), hostileText, ...atBounds);
}

const integer = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: -5, max: 10_000_000 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, -(2 ** 60), 1.5, 1e300),
  },
);

/** JSON values of `plan`'s schema, mostly valid. Pass them through JSON (as a hook's stdin or a file arrives). */
export function jsonFor(plan: SchemaPlan): fc.Arbitrary<unknown> {
  switch (plan.kind) {
    case "string":
      return stringFor(plan);
    case "number":
      return plan.integer === true ? integer : fc.oneof(integer, fc.double({ noNaN: true, noDefaultInfinity: true }));
    case "boolean":
      return fc.boolean();
    case "unknown":
      return otherJsonKind;
    case "literal":
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...plan.values) },
        { weight: 1, arbitrary: fc.constant("another value") },
      );
    case "optional":
      return fc.oneof(jsonFor(plan.inner), fc.constant(undefined));
    case "nullable":
      return fc.oneof(jsonFor(plan.inner), fc.constant(null));
    case "union":
      return fc.oneof(...plan.options.map(jsonFor));
    case "array":
      return fc.array(mostlyField(jsonFor(plan.element), { goodWeight: 20 }), { maxLength: 3 });
    case "record":
      return fc.dictionary(key, mostlyField(jsonFor(plan.value), { goodWeight: 20 }), { maxKeys: 3 });
    case "object": {
      // The more fields, the likelier each is right: an object of 15 fields is still valid about half the time.
      const goodWeight = Math.max(12, 3 * plan.fields.length);
      const fields = Object.fromEntries(
        plan.fields.map((field) => [field.key, mostlyField(jsonFor(field.plan), { goodWeight })]),
      );
      return fc
        .tuple(fc.record(fields), fc.dictionary(key, otherJsonKind, { maxKeys: 2 }))
        .map(([known, unknown]) => ({ ...unknown, ...known }));
    }
  }
}
