// Reads the lineage of indexed sessions (src/core/search/lineage.ts has the rules): each session's family, the
// sessions sharing its first line's uuid, through the sessions_root index.
import {
  type Lineage,
  type LineageRow,
  lineageOf,
  NEUTRAL_CHAIN_QUALITY,
  parentsInFamily,
} from "../../core/search/lineage.ts";
import { databaseOf } from "./database.ts";
import type { SessionIndex } from "./session-index.ts";

/** A family member's columns (./duplicates.ts reads two more). */
export interface LineageColumns {
  id: string;
  root_uuid: string | null;
  origin_session: string | null;
  copied_root: number;
  message_count: number | null;
  created_at: number | null;
}

export function readLineage(index: SessionIndex, ids: readonly string[]): Map<string, Lineage> {
  const db = databaseOf(index);
  const rootOf = db.prepare("SELECT root_uuid FROM sessions WHERE id = ?");
  const familyOf = db.prepare(
    "SELECT id, root_uuid, origin_session, copied_root, message_count, created_at FROM sessions WHERE root_uuid = ?",
  );
  const result = new Map<string, Lineage>();
  for (const id of new Set(ids)) {
    const root = (rootOf.get(id) as { root_uuid: string | null } | undefined)?.root_uuid ?? null;
    const family = root === null ? [] : (familyOf.all(root) as unknown as LineageColumns[]).map(toLineageRow);
    result.set(
      id,
      family.length <= 1 ? { parents: [], forks: [], chainQuality: NEUTRAL_CHAIN_QUALITY } : lineageOf(id, family),
    );
  }
  return result;
}

/** A family member's row as lineage reads it (./duplicates.ts reads the same columns and two more). */
export function toLineageRow(row: LineageColumns): LineageRow {
  return {
    id: row.id,
    rootUuid: row.root_uuid,
    originSession: row.origin_session,
    copiedRoot: Number(row.copied_root) === 1,
    messageCount: Number(row.message_count ?? 0),
    createdAt: Number(row.created_at ?? 0),
  };
}

/** A session whose lineage names a parent, as fork history reads it (src/search/fork-history.ts). */
export interface ForkedSession {
  id: string;
  parentId: string;
  project: string;
  cwd: string | null;
  path: string | null;
  createdAt: number;
  updatedAt: number;
  /** Whether the index knows a fork of this fork. */
  forkedAgain: boolean;
}

interface ForkRow extends LineageColumns {
  project: string | null;
  cwd: string | null;
  path: string | null;
  updated_at: number | null;
}

/**
 * Every fork the index knows: the members of families of two or more sessions that have a parent (the families from
 * the index's running counts, ./counts-schema.ts, not a grouping of every session by its root).
 */
export function readForkedSessions(index: SessionIndex): ForkedSession[] {
  const rows = databaseOf(index)
    .prepare(
      `SELECT id, root_uuid, origin_session, copied_root, message_count, created_at, project, cwd, path, updated_at
       FROM sessions WHERE root_uuid IN (SELECT key FROM counts WHERE kind = 'family' AND n > 1)`,
    )
    .all() as unknown as ForkRow[];
  const families = new Map<string, ForkRow[]>();
  for (const row of rows) {
    const key = row.root_uuid ?? "";
    const family = families.get(key);
    if (family === undefined) families.set(key, [row]);
    else family.push(row);
  }
  const forks: ForkedSession[] = [];
  for (const family of families.values()) {
    const parents = parentsInFamily(family.map(toLineageRow));
    const hasForks = new Set([...parents.values()].filter((parent): parent is string => parent !== null));
    for (const row of family) {
      const parentId = parents.get(row.id) ?? null;
      if (parentId === null) continue;
      forks.push({
        id: row.id,
        parentId,
        project: row.project ?? "",
        cwd: row.cwd,
        path: row.path,
        createdAt: Number(row.created_at ?? 0),
        updatedAt: Number(row.updated_at ?? 0),
        forkedAgain: hasForks.has(row.id),
      });
    }
  }
  return forks;
}
