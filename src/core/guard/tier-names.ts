// The context guard's tiers, lowest first: in a file of their own because both the guard state's zod schema
// (./state-schema.ts) and the zod-free step after every tool call (./tiers.ts) read them.
export const GUARD_TIERS = ["ok", "warning", "advisory", "yellow", "critical"] as const;
export type GuardTier = (typeof GUARD_TIERS)[number];
