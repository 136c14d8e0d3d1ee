// A lock file's record (./lock-owner.ts reads it): on its own, so that every process taking a lock checks it with
// the checker compiled from it (./lock-owner-schema.compiled.ts) and loads no zod.
import * as z from "zod/mini";

export const LockOwnerSchema = z.object({
  pid: z.number(),
  host: z.string(),
  /** Linux: clock ticks after boot at which the process started (/proc/<pid>/stat field 22); null elsewhere. */
  startTime: z.nullable(z.string()),
  /** Random per acquisition: tells this lock apart from a later one by the same process. */
  token: z.string(),
  acquiredAt: z.number(),
});
export type LockOwner = z.infer<typeof LockOwnerSchema>;
