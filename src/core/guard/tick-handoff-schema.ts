// What the server's background guard hands on to the next tick or Stop (`.ctx/guard/<session>.tick.json`,
// store/guard/tick-handoff.ts), as a zod schema: the one description of the file. The Stop hook loads no zod: it
// checks the file with the checker compiled from this schema at build time (./tick-handoff-schema.compiled.ts,
// written by build/compile-schemas.ts).
import * as z from "zod/mini";

/** A measurement under way: the server doing it, and the wall-clock time (ms) by which it ends or is abandoned. */
export const MeasuringSchema = z.object({ pid: z.int(), until: z.number() });
export type Measuring = z.infer<typeof MeasuringSchema>;

export const TickHandoffSchema = z.object({
  sessionId: z.string(),
  measuring: z.nullable(MeasuringSchema),
  /** The guard's note (and user line) from measurements no tick has passed on; several are joined. */
  note: z.nullable(z.object({ additionalContext: z.string(), systemMessage: z.nullable(z.string()) })),
  /** "context guard failed: …" from those measurements. */
  failures: z.array(z.string()),
});
export type TickHandoff = z.infer<typeof TickHandoffSchema>;
