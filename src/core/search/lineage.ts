// Session lineage from the transcripts themselves (docs/search.md "Lineage"), checked against real Claude Code
// 2.1.330 sessions made by the e2e harness (tests/e2e/claude-code-lineage.test.ts):
// - `--resume <id>` and `--resume <id> --resume-session-at <uuid>` append to the SAME file and session id (a branch
//   inside the session), and a compaction continues the same file too: neither makes a new session;
// - `--resume <id> --fork-session` writes a NEW session that copies the original's lines with their uuids and
//   timestamps; the copied assistant lines carry `requestSessionId` = the original session, and every prompt of
//   the copy (the copied ones too) carries the new run's `promptId`;
// - with `--resume-session-at <uuid>` the copy stops at that line.
// So sessions sharing their first line's uuid (`root`) are one family; a member is a fork when a copied line names
// its origin, or when its first prompt's promptId recurs on a later prompt. Chain quality (product document v1.1):
// the share of a session's forks that succeeded, i.e. went on for more than SUCCESS_MESSAGES messages of their own.
// Pure.

/** The neutral chain quality of a session without forks (the product document's value). */
export const NEUTRAL_CHAIN_QUALITY = 0.5;
/** A fork that went on for more than this many messages of its own succeeded. */
export const SUCCESS_MESSAGES = 20;

export interface LineageRow {
  id: string;
  rootUuid: string | null;
  originSession: string | null;
  copiedRoot: boolean;
  messageCount: number;
  createdAt: number;
}

export interface Lineage {
  parents: string[];
  forks: string[];
  chainQuality: number;
}

/** The parent of each member of one family (rows sharing a root uuid); members without one map to null. */
export function parentsInFamily(family: readonly LineageRow[]): Map<string, string | null> {
  const ids = new Set(family.map((row) => row.id));
  const isFork = (row: LineageRow) =>
    (row.originSession !== null && row.originSession !== row.id && ids.has(row.originSession)) || row.copiedRoot;
  const originals = family
    .filter((row) => !isFork(row))
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  const parents = new Map<string, string | null>();
  for (const row of family) {
    if (!isFork(row)) parents.set(row.id, null);
    else if (row.originSession !== null && row.originSession !== row.id && ids.has(row.originSession)) {
      parents.set(row.id, row.originSession);
    } else parents.set(row.id, originals.find((original) => original.id !== row.id)?.id ?? null);
  }
  return parents;
}

/** Parents, forks and chain quality of `id` within its family. */
export function lineageOf(id: string, family: readonly LineageRow[]): Lineage {
  const parents = parentsInFamily(family);
  const byId = new Map(family.map((row) => [row.id, row]));
  const self = byId.get(id);
  const parent = parents.get(id) ?? null;
  const forks = family.filter((row) => parents.get(row.id) === id).map((row) => row.id);
  let succeeded = 0;
  for (const forkId of forks) {
    const fork = byId.get(forkId);
    // Messages of its own: what it has beyond the copy of this session (a copy is never longer than its origin).
    const own = (fork?.messageCount ?? 0) - Math.min(self?.messageCount ?? 0, fork?.messageCount ?? 0);
    if (own > SUCCESS_MESSAGES) succeeded++;
  }
  return {
    parents: parent === null ? [] : [parent],
    forks,
    chainQuality: forks.length === 0 ? NEUTRAL_CHAIN_QUALITY : succeeded / forks.length,
  };
}
