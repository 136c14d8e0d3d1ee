// The rules of a session's annotations: what a label may be (bounded, one word, no control characters: a hostile 1 MB
// tag or an escape sequence is refused with a clear line, never stored), each library operation as a pure change of
// one annotation, the filters and the one-line text every result shows. The note's own rule is ./note.ts (it loads
// the redactor, which a search that only shows annotations does not need).

import type * as z from "zod/mini";
import { CtxError } from "../../errors.ts";
import { hasControlCharacter } from "../text/control-characters.ts";
import type { SessionAnnotationSchema } from "./annotation-schema.ts";

/** Plain data, `{ starred: boolean; labels: string[]; note: string | null }`: a session's star, labels and note. */
export type SessionAnnotation = z.infer<typeof SessionAnnotationSchema>;

/** A label is a short word: long enough for `payments-v2`, short enough to list many on one line. */
export const MAX_LABEL_CHARS = 40;
/** Labels per session: a curation aid, not a second full-text index. */
export const MAX_LABELS = 20;
/** A note's size in UTF-8 bytes (4 KiB): a few sentences, what a result line and a preview can carry. */
export const MAX_NOTE_BYTES = 4_096;

export const EMPTY_ANNOTATION: SessionAnnotation = { starred: false, labels: [], note: null };

/** One change to a session's annotation (`ctx session star|unstar|tag|untag|note`, `ctx_library`). */
export type LibraryChange =
  | { op: "star" }
  | { op: "unstar" }
  | { op: "tag"; labels: readonly string[] }
  | { op: "untag"; labels: readonly string[] }
  /** `note: null` clears the note. */
  | { op: "note"; note: string | null };

/** A few characters of what was refused, quoted, so the error line itself stays short and shows no raw escape. */
function quoted(text: string): string {
  const head = text.length > 24 ? `${text.slice(0, 24)}…` : text;
  return JSON.stringify(head);
}

/** The label as stored: trimmed, NFC, lowercase. Throws USAGE for one that is empty, too long or not one word. */
export function normalizeLabel(raw: string): string {
  if (raw.length > MAX_LABEL_CHARS * 4) {
    throw new CtxError("USAGE", `a tag is at most ${MAX_LABEL_CHARS} characters; this one has ${raw.length}`);
  }
  const label = raw.trim().normalize("NFC").toLowerCase();
  if (label === "") throw new CtxError("USAGE", "a tag cannot be empty");
  if (hasControlCharacter(label)) {
    throw new CtxError("USAGE", `the tag ${quoted(label)} holds a control character (an escape sequence or newline)`, {
      hint: "a tag is one short word: letters, digits and - _ . / : + #",
    });
  }
  if (/[\s,]/u.test(label)) {
    throw new CtxError("USAGE", `the tag ${quoted(label)} is not one word`, {
      hint: "a tag is one word (join words with - or _); give several tags as separate arguments",
    });
  }
  if ([...label].length > MAX_LABEL_CHARS) {
    throw new CtxError("USAGE", `the tag ${quoted(label)} is longer than ${MAX_LABEL_CHARS} characters`);
  }
  return label;
}

/** The labels normalised, without duplicates, sorted. */
export function normalizeLabels(raw: readonly string[]): string[] {
  return [...new Set(raw.map(normalizeLabel))].sort();
}

/** The annotation after `change` (labels of a tag/untag already normalised). Throws USAGE past MAX_LABELS. */
export function applyLibraryChange(current: SessionAnnotation | null, change: LibraryChange): SessionAnnotation {
  const base = current ?? EMPTY_ANNOTATION;
  switch (change.op) {
    case "star":
      return { ...base, starred: true };
    case "unstar":
      return { ...base, starred: false };
    case "tag": {
      const labels = [...new Set([...base.labels, ...change.labels])].sort();
      if (labels.length > MAX_LABELS) {
        throw new CtxError("USAGE", `a session holds at most ${MAX_LABELS} tags; this would make ${labels.length}`, {
          hint: "remove some with `ctx session untag`",
        });
      }
      return { ...base, labels };
    }
    case "untag": {
      const removed = new Set(change.labels);
      return { ...base, labels: base.labels.filter((label) => !removed.has(label)) };
    }
    case "note":
      return { ...base, note: change.note };
  }
}

/** Nothing said about the session: its record is dropped rather than kept empty. */
export function isEmptyAnnotation(annotation: SessionAnnotation): boolean {
  return !annotation.starred && annotation.labels.length === 0 && annotation.note === null;
}

/** What `--starred` and `--tag` keep (every named label must be there); no filter keeps all. */
export interface AnnotationFilter {
  starred?: boolean;
  labels?: readonly string[];
}

export function matchesAnnotationFilter(annotation: SessionAnnotation | undefined, filter: AnnotationFilter): boolean {
  const wantsStar = filter.starred === true;
  const labels = filter.labels ?? [];
  if (!wantsStar && labels.length === 0) return true;
  if (annotation === undefined) return false;
  if (wantsStar && !annotation.starred) return false;
  return labels.every((label) => annotation.labels.includes(label));
}

/** "★ starred · tags: auth, db · note: …" for a result's text, or null when there is nothing to say. */
export function describeAnnotation(annotation: SessionAnnotation | undefined, noteChars = 160): string | null {
  if (annotation === undefined) return null;
  const parts: string[] = [];
  if (annotation.starred) parts.push("★ starred");
  if (annotation.labels.length > 0) parts.push(`tags: ${annotation.labels.join(", ")}`);
  if (annotation.note !== null) {
    const note = annotation.note.length > noteChars ? `${annotation.note.slice(0, noteChars)}…` : annotation.note;
    parts.push(`note: ${note}`);
  }
  return parts.length === 0 ? null : parts.join(" · ");
}
