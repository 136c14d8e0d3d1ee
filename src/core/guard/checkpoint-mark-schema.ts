// The rolling checkpoint's counter (`.ctx/checkpoint-mark.json`), as zod schemas: the one description of the file,
// in its current and its first format. The hooks after every tool call and turn load no zod: they check the file
// with the checkers compiled from these schemas at build time (./checkpoint-mark-schema.compiled.ts, written by
// build/compile-schemas.ts).
import * as z from "zod/mini";

export const SessionCountSchema = z.object({
  /** Transcript size when last counted. */
  offset: z.int(),
  /** Messages counted since the last checkpoint. */
  messages: z.int(),
  /** ISO 8601: this session's last tick (decides which sessions the bound drops). */
  updatedAt: z.string(),
});
export type SessionCount = z.infer<typeof SessionCountSchema>;

/** One count per session, so sessions working in one project at once each reach their interval. */
export const CheckpointMarkSchema = z.object({ sessions: z.record(z.string(), SessionCountSchema) });
export type CheckpointMark = z.infer<typeof CheckpointMarkSchema>;

/** The mark before it counted per session: read as that one session, so its count carries over. */
export const SingleSessionMarkSchema = z.object({ sessionId: z.string(), offset: z.int(), messages: z.int() });
export type SingleSessionMark = z.infer<typeof SingleSessionMarkSchema>;
