// What `ctx export --json` and `ctx import --json` print (made by ./bundle-export.ts and ./bundle-import.ts). The
// text a bundle brought (titles, projects) is as the bundle holds it: the shells sanitise it for a terminal.
import * as z from "zod/mini";

export const ExportReportSchema = z.object({
  /** The bundle written (a link's target with --force). */
  out: z.string(),
  /** Every transcript passed the redactor. */
  redacted: z.literal(true),
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      title: z.string(),
      project: z.string(),
      /** The transcript and its subagents'. */
      files: z.number(),
      /** Their bytes, redacted. */
      bytes: z.number(),
      annotated: z.boolean(),
    }),
  ),
});
export type ExportReport = z.infer<typeof ExportReportSchema>;

export const ImportReportSchema = z.object({
  bundle: z.string(),
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      title: z.string(),
      project: z.string(),
      /** This machine's checkout of the project. */
      checkout: z.string(),
      /** The folder the session resumes in. */
      cwd: z.string(),
      transcriptPath: z.string(),
      /** written: new; unchanged: an identical copy was there; replaced: a different one, with --force. */
      outcome: z.enum(["written", "unchanged", "replaced"]),
      files: z.number(),
      rewrittenCwdFields: z.number(),
      /** `cd <cwd> && claude --resume <id>`, shell-quoted. */
      resumeCommand: z.string(),
      annotated: z.boolean(),
    }),
  ),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;
