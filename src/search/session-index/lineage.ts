// Reads the lineage of indexed sessions (src/core/search/lineage.ts has the rules): each session's family, the
// sessions sharing its first line's uuid, through the sessions_root index.
import { type Lineage, type LineageRow, lineageOf, NEUTRAL_CHAIN_QUALITY } from "../../core/search/lineage.ts";
import { databaseOf } from "./database.ts";
import type { SessionIndex } from "./session-index.ts";

interface Row {
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
    const family = root === null ? [] : (familyOf.all(root) as unknown as Row[]).map(toLineageRow);
    result.set(
      id,
      family.length <= 1 ? { parents: [], forks: [], chainQuality: NEUTRAL_CHAIN_QUALITY } : lineageOf(id, family),
    );
  }
  return result;
}

function toLineageRow(row: Row): LineageRow {
  return {
    id: row.id,
    rootUuid: row.root_uuid,
    originSession: row.origin_session,
    copiedRoot: Number(row.copied_root) === 1,
    messageCount: Number(row.message_count ?? 0),
    createdAt: Number(row.created_at ?? 0),
  };
}
