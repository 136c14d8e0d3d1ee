// What `ctx fork --json` prints: the session, where it came from, and the command that forks it. Made by
// ./fork-flow.ts for a teammate's session and by cli/commands/fork.ts for a local one.
import * as z from "zod/mini";

export const ForkReportSchema = z.object({
  sessionId: z.string(),
  /** `local`: on this machine; `team`: fetched from the team server. */
  source: z.enum(["local", "team"]),
  cwd: z.nullable(z.string()),
  forkCommand: z.string(),
  transcriptPath: z.string(),
  /** A team session's transcript is the redacted copy its author pushed. */
  redacted: z.boolean(),
  team: z.optional(
    z.object({
      team: z.string(),
      author: z.string(),
      title: z.string(),
      project: z.string(),
      checkout: z.string(),
      /** False when an identical copy was already in Claude Code's folder. */
      written: z.boolean(),
      rewrittenCwdFields: z.number(),
    }),
  ),
});
export type ForkReport = z.infer<typeof ForkReportSchema>;
