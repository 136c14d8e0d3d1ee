// The guard state's hand-written check (./state.ts) against the zod schema it replaced: on generated states (each
// field right, of another kind, or missing; unknown fields added) both accept the same files and keep the same data.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { mostlyField } from "../../../tests/helpers/json-arbitraries.ts";
import { CompactionSchema, MeasurementSchema, ThresholdsSchema } from "./health.ts";
import { GUARD_TIERS, parseGuardState } from "./state.ts";

/** The zod schema of the guard state before it was checked by hand. */
const GuardStateSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  updatedAt: z.string(),
  operations: z.int(),
  usedTokens: z.nullable(z.int()),
  windowTokens: z.int(),
  autoCompactTokens: z.int(),
  tier: z.enum(GUARD_TIERS),
  announcedLevel: z.int(),
  alarm: z.boolean(),
  velocity: z.nullable(z.number()),
  forecastOperations: z.nullable(z.int()),
  thresholds: ThresholdsSchema,
  measurements: z.array(MeasurementSchema),
  lastCompaction: z.nullable(CompactionSchema),
});
const zodParse = (value: unknown) => {
  const parsed = GuardStateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

const field = (good: fc.Arbitrary<unknown>) => mostlyField(good);
const int = fc.integer({ min: -5, max: 1_000_000 });
const num = fc.oneof(int, fc.double({ min: 0, max: 100, noNaN: true }));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(arbitrary, fc.constant(null));

const measurement = fc.record({
  op: field(int),
  at: field(fc.string()),
  usedTokens: field(int),
  extra: field(fc.string()),
});
const compaction = fc.record({
  at: field(maybe(fc.string())),
  trigger: field(maybe(fc.string())),
  preTokens: field(maybe(num)),
  postTokens: field(maybe(num)),
});
const state = fc.record({
  version: field(fc.constant(1)),
  sessionId: field(fc.string()),
  updatedAt: field(fc.string()),
  operations: field(int),
  usedTokens: field(maybe(int)),
  windowTokens: field(int),
  autoCompactTokens: field(int),
  tier: field(fc.constantFrom(...GUARD_TIERS, "red")),
  announcedLevel: field(int),
  alarm: field(fc.boolean()),
  velocity: field(maybe(num)),
  forecastOperations: field(maybe(int)),
  thresholds: field(fc.record({ warning: field(num), advisory: field(num), yellow: field(num), critical: field(num) })),
  measurements: field(fc.array(measurement, { maxLength: 3 })),
  lastCompaction: field(maybe(compaction)),
  someLaterField: field(fc.string()),
});

describe("parseGuardState", () => {
  it("accepts and keeps exactly what the zod schema did", () => {
    let accepted = 0;
    fc.assert(
      fc.property(state, (generated) => {
        const value = JSON.parse(JSON.stringify(generated)) as unknown;
        const parsed = parseGuardState(value);
        expect(parsed).toEqual(zodParse(value));
        if (parsed !== null) accepted += 1;
      }),
      { numRuns: 3_000 },
    );
    // Both outcomes were exercised, not only refusals.
    expect(accepted).toBeGreaterThan(50);
  });
});
