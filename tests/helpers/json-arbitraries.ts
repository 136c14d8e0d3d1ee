// Generated JSON for the property tests that hold a hand-written check to the zod schema it replaced
// (hooks/runtime/every-call-input.ts, core/guard/state.ts, core/guard/checkpoint-tick.ts).
import fc from "fast-check";

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
