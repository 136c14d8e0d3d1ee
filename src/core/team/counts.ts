// The rows a member's connection can see on the team server (`ctx team status`): one schema for the server read
// (team/inspect.ts) and the command's --json report.
import * as z from "zod/mini";

export const TeamCountsSchema = z.object({
  members: z.number(),
  projects: z.number(),
  sessions: z.number(),
  chunks: z.number(),
  transcripts: z.number(),
  /** The sessions this member pushed. */
  mySessions: z.number(),
});
export type TeamCounts = z.infer<typeof TeamCountsSchema>;
