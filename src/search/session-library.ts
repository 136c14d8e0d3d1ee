// The session library's flow, shared by `ctx session …` and the ctx_library tool: name a session (a unique prefix of
// an indexed id), change its star, labels or note in the library state (the truth, store/library/), then mirror it
// into the session index (./session-index/annotations.ts) so search filters and shows it at once; and list the
// annotated sessions with what the index knows of each.
import { existsSync } from "node:fs";
import {
  type AnnotationFilter,
  applyLibraryChange,
  type LibraryChange,
  MAX_LABELS,
  matchesAnnotationFilter,
  normalizeLabel,
  normalizeLabels,
  type SessionAnnotation,
} from "../core/library/annotation.ts";
import type { AnnotationRecord } from "../core/library/annotation-schema.ts";
import { prepareNote } from "../core/library/note.ts";
import { CtxError } from "../errors.ts";
import { annotationOf, changeAnnotation, readLibrary } from "../store/library/library-state.ts";
import { sharedRootsForIngest } from "../store/team/team-state.ts";
import type { LibraryEntry, LibraryListing, LibraryUpdate } from "./library-schema.ts";
import { resolveIndexPath } from "./paths.ts";
import { mirrorAnnotation } from "./session-index/annotations.ts";
import { openSessionIndex, type SessionIndex } from "./session-index/session-index.ts";
import { resolveSessionId } from "./session-naming.ts";

export interface LibraryDeps {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** Strings the redactor leaves alone (config `redaction.allowlist`). */
  allowlist?: readonly string[];
  /** The asking session (CLAUDE_CODE_SESSION_ID): accepted by its full id even before the index holds it. */
  currentSessionId?: string;
}

/** What a person asks to change; labels and the note as they typed them (normalised and checked here). */
export type LibraryRequest =
  | { op: "star" | "unstar" }
  | { op: "tag" | "untag"; tags: readonly string[] }
  | { op: "note"; note: string | null };

/** A prefix this short names too many sessions by accident (a typo would tag a stranger). */
export const MIN_ID_PREFIX = 4;

/** Changes one session's annotation: checked, redacted, stored, mirrored. Nothing is written for a bad request. */
export async function updateLibrary(
  deps: LibraryDeps,
  idText: string,
  request: LibraryRequest,
): Promise<LibraryUpdate> {
  // Checked before the id is looked up or anything is opened: a hostile tag or note is refused whole.
  const { change, redactions } = changeOf(request, deps.allowlist);
  // Read-only to name the session: a read-write open of an index made by another version of ctx would drop its tables
  // (the next sync rebuilds them), leaving nothing to name a session by; this way the person is told to run
  // `ctx index` and nothing is written.
  const reader = openReaderIfPresent(deps.env);
  let sessionId: string;
  try {
    sessionId = resolveSessionId(idText, {
      index: reader,
      alsoKnown: Object.keys(await readLibrary(deps.env, deps.now())),
      minPrefix: MIN_ID_PREFIX,
      ...(deps.currentSessionId === undefined ? {} : { currentSessionId: deps.currentSessionId }),
    });
  } finally {
    reader?.close();
  }
  const record = await changeAnnotation(
    deps.env,
    sessionId,
    (current) => applyLibraryChange(current, change),
    deps.now(),
  );
  const notices: string[] = [];
  if (reader !== null) {
    try {
      const index = openSessionIndex(resolveIndexPath(deps.env));
      try {
        // A shared project's session is queued for the team: its tags and note go with the next push.
        mirrorAnnotation(index, sessionId, record, await sharedRootsForIngest(deps.env));
      } finally {
        index.close();
      }
    } catch (error) {
      // The library file is the truth and holds the change; the next sync (any search or `ctx index`) mirrors it.
      notices.push(`saved, but the search index could not be updated yet (${describe(error)}): the next sync does it`);
    }
  }
  return {
    op: request.op,
    sessionId,
    annotation: record === null ? { starred: false, labels: [], note: null } : annotationOf(record),
    updatedAt: record?.updatedAt ?? null,
    redactions,
    notices,
  };
}

/** The annotated sessions that pass `filter` (labels as typed: normalised here), most recently annotated first. */
export async function listLibrary(deps: LibraryDeps, filter: AnnotationFilter): Promise<LibraryListing> {
  const wanted: AnnotationFilter = {
    ...(filter.starred === true ? { starred: true } : {}),
    ...(filter.labels === undefined ? {} : { labels: normalizeLabels(filter.labels) }),
  };
  const entries = Object.entries(await readLibrary(deps.env, deps.now()))
    .filter(([, record]) => matchesAnnotationFilter(annotationOf(record), wanted))
    .sort(([a, x], [b, y]) => y.updatedAt - x.updatedAt || (a < b ? -1 : 1));
  const index = openListingIndex(deps.env);
  try {
    const sessions = index?.getSessions(entries.map(([id]) => id)) ?? new Map();
    return {
      sessions: entries.map(([id, record]) => entryOf(id, record, sessions.get(id))),
      labels: labelTotals(entries.map(([, record]) => record)),
    };
  } finally {
    index?.close();
  }
}

/** The person's annotations of these sessions, for a bundle (`ctx export`): only the sessions that have one. */
export async function annotationsOf(
  env: NodeJS.ProcessEnv,
  ids: readonly string[],
): Promise<ReadonlyMap<string, SessionAnnotation>> {
  const library = await readLibrary(env);
  const found = new Map<string, SessionAnnotation>();
  for (const id of ids) {
    const record = library[id];
    if (record !== undefined) found.set(id, annotationOf(record));
  }
  return found;
}

/**
 * A bundle's annotation of a session `ctx import` placed: a bundle is untrusted, so its labels and note pass the
 * library's own rules (normalised, bounded, the note redacted again) and a label or note they refuse is dropped, never
 * stored. Merged with what the person already said of the session: labels joined, a star kept, their own note kept.
 * Mirrored into the index by the next sync (`ctx index`, any search). Returns the labels and note it dropped.
 */
export async function adoptAnnotation(
  deps: LibraryDeps,
  sessionId: string,
  annotation: SessionAnnotation,
): Promise<string[]> {
  const dropped: string[] = [];
  const labels: string[] = [];
  for (const label of annotation.labels) {
    try {
      labels.push(normalizeLabel(label));
    } catch {
      dropped.push(`tag ${JSON.stringify(label.slice(0, 24))}`);
    }
  }
  let note: string | null = null;
  if (annotation.note !== null) {
    try {
      note = prepareNote(annotation.note, deps.allowlist === undefined ? {} : { allowlist: deps.allowlist }).note;
    } catch {
      dropped.push("note");
    }
  }
  await changeAnnotation(
    deps.env,
    sessionId,
    (current) => {
      const base = current ?? { starred: false, labels: [], note: null };
      const joined = [...new Set([...base.labels, ...labels])].sort().slice(0, MAX_LABELS);
      return { starred: base.starred || annotation.starred, labels: joined, note: base.note ?? note };
    },
    deps.now(),
  );
  return dropped;
}

function entryOf(
  sessionId: string,
  record: AnnotationRecord,
  session: { title: string; project: string; cwd: string | null; updatedAt: number } | undefined,
): LibraryEntry {
  return {
    sessionId,
    ...annotationOf(record),
    annotatedAt: new Date(record.updatedAt).toISOString(),
    indexed: session !== undefined,
    title: session?.title ?? null,
    project: session?.project ?? null,
    cwd: session?.cwd ?? null,
    lastActive: session === undefined ? null : new Date(session.updatedAt).toISOString(),
  };
}

function labelTotals(records: readonly AnnotationRecord[]): Array<{ label: string; sessions: number }> {
  const counts = new Map<string, number>();
  for (const record of records) for (const label of record.labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts]
    .map(([label, sessions]) => ({ label, sessions }))
    .sort((a, b) => b.sessions - a.sessions || (a.label < b.label ? -1 : 1));
}

function changeOf(
  request: LibraryRequest,
  allowlist?: readonly string[],
): { change: LibraryChange; redactions: number } {
  switch (request.op) {
    case "star":
    case "unstar":
      return { change: { op: request.op }, redactions: 0 };
    case "tag":
    case "untag":
      if (request.tags.length === 0) throw new CtxError("USAGE", `${request.op} needs at least one tag`);
      return { change: { op: request.op, labels: normalizeLabels(request.tags) }, redactions: 0 };
    case "note": {
      if (request.note === null) return { change: { op: "note", note: null }, redactions: 0 };
      const prepared = prepareNote(request.note, allowlist === undefined ? {} : { allowlist });
      return { change: { op: "note", note: prepared.note }, redactions: prepared.redactions };
    }
  }
}

/** The index, read-only, or null when there is none yet (the next sync mirrors the library into it). */
function openReaderIfPresent(env: NodeJS.ProcessEnv): SessionIndex | null {
  const path = resolveIndexPath(env);
  if (!existsSync(path)) return null;
  return openSessionIndex(path, { readonly: true });
}

/** The index to name the listed sessions, read-only; none when it is missing or unreadable (the list stands alone). */
function openListingIndex(env: NodeJS.ProcessEnv): SessionIndex | null {
  try {
    return openReaderIfPresent(env);
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
