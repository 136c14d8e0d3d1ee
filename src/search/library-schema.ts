// What the session library's commands report (`ctx session … --json`, the ctx_library tool's output), one zod schema
// each, beside the flow that builds them (./session-library.ts imports their types only).
import * as z from "zod/mini";
import { SessionAnnotationSchema } from "../core/library/annotation-schema.ts";

/** One change: the session it named (the full id) and its annotation after it. */
export const LibraryUpdateSchema = z.object({
  op: z.string(),
  sessionId: z.string(),
  annotation: SessionAnnotationSchema,
  /** When the annotation was stored (epoch ms); null when the change left nothing, so the record was removed. */
  updatedAt: z.nullable(z.number()),
  /** Secrets the redactor replaced in the note. */
  redactions: z.int(),
  /** One line each on what could not be done beside the change (the index not mirrored yet). */
  notices: z.array(z.string()),
});
export type LibraryUpdate = z.infer<typeof LibraryUpdateSchema>;

/** An annotated session with what the index knows of it (nulls when it is not indexed, or no longer). */
export const LibraryEntrySchema = z.object({
  sessionId: z.string(),
  ...SessionAnnotationSchema.shape,
  /** When the annotation last changed (ISO). */
  annotatedAt: z.string(),
  indexed: z.boolean(),
  title: z.nullable(z.string()),
  project: z.nullable(z.string()),
  cwd: z.nullable(z.string()),
  /** The session's last activity (ISO), from the index. */
  lastActive: z.nullable(z.string()),
});
export type LibraryEntry = z.infer<typeof LibraryEntrySchema>;

export const LibraryListingSchema = z.object({
  sessions: z.array(LibraryEntrySchema),
  /** Every label among the listed sessions, with how many carry it, most used first. */
  labels: z.array(z.object({ label: z.string(), sessions: z.int() })),
});
export type LibraryListing = z.infer<typeof LibraryListingSchema>;
