// `.ctx/sessions.ctx`'s schema (./seen.ts keeps the file's bookkeeping). On its own, so that the hooks reading the
// file check it with the checker compiled from it (./seen-schema.compiled.ts) and load no zod.
import * as z from "zod/mini";

export const SessionRecordSchema = z.object({
  sessionId: z.string(),
  transcriptPath: z.nullable(z.string()),
  cwd: z.nullable(z.string()),
  /** SessionStart `source` of the latest start: startup | resume | clear | compact | fork. */
  source: z.nullable(z.string()),
  model: z.nullable(z.string()),
  startedAt: z.nullable(z.string()),
  endedAt: z.nullable(z.string()),
  endReason: z.nullable(z.string()),
  starts: z.int(),
  lastSeenAt: z.string(),
  /**
   * Claude Code's process id at the latest start, so a live session is told apart from a crashed one.
   * Optional: files written before it was recorded still validate.
   */
  pid: z.optional(z.nullable(z.int())),
});
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

export const SessionsFileSchema = z.object({
  sessions: z.array(SessionRecordSchema),
});
export type SessionsFile = z.infer<typeof SessionsFileSchema>;
