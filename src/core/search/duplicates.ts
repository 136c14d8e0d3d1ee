// Duplicate sessions (docs/search.md "Duplicates"): within one lineage family (./lineage.ts), a copy that added
// nothing of its own to what it copied. `--fork-session`, `/branch` and an old `--resume` copy the parent's lines
// (their uuids, timestamps, and on assistant lines a `requestSessionId` naming the parent); a copy that was then left
// without a reply of its own (at most a local command or an unanswered prompt: the tolerance) holds the same
// conversation, or a prefix of it, as its parent. Such sessions are folded into one group, and the group is shown
// once, as its canonical member: the most content (replies: an unanswered prompt is the tolerance, not content),
// then the oldest, then an original over a copy. A fork that went on (one reply of its own) is never a duplicate. Pure.
import { type LineageRow, parentsInFamily } from "./lineage.ts";

export interface DuplicateRow extends LineageRow {
  /** Assistant replies in its main chain, copied ones included. */
  replies: number;
  /** Replies this session's own runs wrote (not copied from another session). */
  ownReplies: number;
}

/** Each duplicate's canonical session, within one family; sessions that are nobody's duplicate are absent. */
export function findDuplicates(family: readonly DuplicateRow[]): Map<string, string> {
  const parents = parentsInFamily(family);
  // Union-find over "is a copy of": a copy without replies of its own joins its parent's group.
  const leader = new Map(family.map((row) => [row.id, row.id]));
  const find = (id: string): string => {
    let at = id;
    while (leader.get(at) !== at) at = leader.get(at) ?? at;
    return at;
  };
  for (const row of family) {
    const parent = parents.get(row.id) ?? null;
    if (parent === null || row.ownReplies > 0) continue;
    leader.set(find(row.id), find(parent));
  }
  const groups = new Map<string, DuplicateRow[]>();
  for (const row of family) {
    const key = find(row.id);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [row]);
    else group.push(row);
  }
  const canonicalOf = new Map<string, string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const canonical = [...group].sort((a, b) => compareCanonical(a, b, parents))[0] as DuplicateRow;
    for (const row of group) if (row.id !== canonical.id) canonicalOf.set(row.id, canonical.id);
  }
  return canonicalOf;
}

/** The better canonical first: more replies, then older, then an original before a copy, then by id. */
function compareCanonical(a: DuplicateRow, b: DuplicateRow, parents: ReadonlyMap<string, string | null>): number {
  const isCopy = (row: DuplicateRow) => ((parents.get(row.id) ?? null) === null ? 0 : 1);
  return (
    b.replies - a.replies ||
    a.createdAt - b.createdAt ||
    isCopy(a) - isCopy(b) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
