// Row <-> model mapping for the session index, and the SQL for SearchFilters (always parameterised).
import type { IndexedSession, MemoryType, SearchFilters } from "../../core/search/model.ts";

export interface SessionRow {
  id: string;
  project: string | null;
  cwd: string | null;
  path: string | null;
  git_branch: string | null;
  created_at: number | null;
  updated_at: number | null;
  message_count: number | null;
  title: string | null;
  tags: string | null;
  memory_markers: string | null;
  /** From the annotations mirror (LEFT JOIN, SESSION_SELECT): null when the session has none. */
  annotation_starred?: number | null;
  annotation_labels?: string | null;
  annotation_note?: string | null;
}

/** A session's row with its annotation beside it (the mirror of the session library, ./annotations.ts). */
export const SESSION_SELECT = `SELECT s.*, a.starred AS annotation_starred, a.labels AS annotation_labels,
  a.note AS annotation_note FROM sessions s LEFT JOIN annotations a ON a.session_id = s.id`;

export function sessionFromRow(row: SessionRow): IndexedSession {
  return {
    id: row.id,
    project: row.project ?? "",
    cwd: row.cwd,
    path: row.path ?? "",
    gitBranch: row.git_branch,
    createdAt: Number(row.created_at ?? 0),
    updatedAt: Number(row.updated_at ?? 0),
    messageCount: Number(row.message_count ?? 0),
    title: row.title ?? "",
    tags: parseStringArray(row.tags),
    memoryMarkers: parseStringArray(row.memory_markers) as MemoryType[],
    ...(row.annotation_starred == null
      ? {}
      : {
          annotation: {
            starred: Number(row.annotation_starred) === 1,
            labels: parseStringArray(row.annotation_labels),
            note: typeof row.annotation_note === "string" ? row.annotation_note : null,
          },
        }),
  };
}

export function parseStringArray(json: unknown): string[] {
  if (typeof json !== "string" || json === "") return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** `AND …` conditions on the `sessions s` alias; empty when there is no filter. */
export function filterClause(filters: SearchFilters): { sql: string; params: Array<string | number> } {
  const parts: string[] = [];
  const params: Array<string | number> = [];
  if (filters.projects !== undefined) {
    if (filters.projects.length === 0) parts.push("AND 0");
    else {
      parts.push(`AND s.project IN (${filters.projects.map(() => "?").join(", ")})`);
      params.push(...filters.projects);
    }
  }
  if (filters.since !== undefined) {
    parts.push("AND s.updated_at >= ?");
    params.push(filters.since);
  }
  if (filters.until !== undefined) {
    parts.push("AND s.updated_at <= ?");
    params.push(filters.until);
  }
  if (filters.startedBefore !== undefined) {
    parts.push("AND s.created_at < ?");
    params.push(filters.startedBefore);
  }
  // An excluded phrase: every session with a chunk that holds it (the FTS table, as the query's own words are found).
  for (const phrase of filters.exclude ?? []) {
    parts.push(
      "AND s.id NOT IN (SELECT x.session_id FROM chunks x WHERE x.id IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?))",
    );
    params.push(phrase);
  }
  // The person's labels and star (the annotations mirror): every named label must be there.
  for (const label of filters.labels ?? []) {
    parts.push(
      "AND EXISTS (SELECT 1 FROM annotations a, json_each(a.labels) j WHERE a.session_id = s.id AND j.value = ?)",
    );
    params.push(label);
  }
  if (filters.starred === true) {
    parts.push("AND EXISTS (SELECT 1 FROM annotations a WHERE a.session_id = s.id AND a.starred = 1)");
  }
  for (const tag of filters.tags ?? []) {
    parts.push("AND EXISTS (SELECT 1 FROM json_each(s.tags) WHERE json_each.value = ?)");
    params.push(tag);
  }
  return { sql: parts.join(" "), params };
}
