// The schemas of a session's annotations (stars, labels, a note): the plain shape every surface carries (search
// results, `ctx session list --json`, the preview, an export bundle) and the stored record with its time. Apart from
// ./annotation.ts, whose rules import the type only: a search that shows annotations loads no zod.
import * as z from "zod/mini";

/** What a person said about a session: a star, their labels (`ctx session tag`), a note (redacted). */
export const SessionAnnotationSchema = z.object({
  starred: z.boolean(),
  /** Normalised (./annotation.ts normalizeLabel): lowercase, one word, sorted, no duplicates. */
  labels: z.array(z.string()),
  /** One line, redacted before it was stored; null when there is none. */
  note: z.nullable(z.string()),
});

/** One session's annotation as the library state keeps it: the annotation and when it last changed (epoch ms). */
export const AnnotationRecordSchema = z.object({
  ...SessionAnnotationSchema.shape,
  updatedAt: z.number(),
});
export type AnnotationRecord = z.infer<typeof AnnotationRecordSchema>;
