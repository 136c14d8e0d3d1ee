// The chains page's data (docs/ui.md "Chains"): a project's fork families from the session index's lineage
// (readForkedSessions), each fork's verdict from fork history (loadForkHistory, which also keeps search's paid-off
// sources current), and the compactions ctx snapshotted before (store/snapshots). Read-only on the index.
import { existsSync } from "node:fs";
import { selectProjects } from "../../core/search/fork-query.ts";
import { describeError } from "../../errors.ts";
import { loadForkHistory } from "../../search/fork-history.ts";
import type { ForkRecordReport } from "../../search/fork-history-schema.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { readForkedSessions } from "../../search/session-index/lineage.ts";
import { openSessionIndex } from "../../search/session-index/session-index.ts";
import { listSnapshots } from "../../store/snapshots/snapshots.ts";
import type { ChainMember } from "./chain-graph.ts";

export type ForkVerdict = ForkRecordReport["outcome"]["verdict"];

/** Families drawn at most, the most recently active first: a page, not a poster. */
export const MAX_FAMILIES = 40;

export interface ChainSession extends ChainMember {
  title: string;
  project: string;
  messageCount: number;
  updatedAt: number;
  /** Its verdict as a fork (docs/forks.md); null for an original, or a fork fork history has not read. */
  verdict: ForkVerdict | null;
  /** Compactions ctx took a snapshot before (PreCompact: trigger auto or manual). */
  compactions: number;
}

export interface ChainsData {
  /** What was asked for ("this", a path, part of a folder name) and the indexed projects it matched. */
  project: string;
  matched: string[];
  sessions: ChainSession[];
  /** Families left out past MAX_FAMILIES. */
  familiesLeftOut: number;
  /** Why verdicts are missing (fork log unreadable), or null. */
  notice: string | null;
}

/** The chains of `project` ("this": the project at `projectRoot`). */
export async function loadChains(env: NodeJS.ProcessEnv, projectRoot: string, project = "this"): Promise<ChainsData> {
  const dbPath = resolveIndexPath(env);
  const empty: ChainsData = { project, matched: [], sessions: [], familiesLeftOut: 0, notice: null };
  if (!existsSync(dbPath)) return { ...empty, notice: "no session index yet: run ctx index" };
  const index = openSessionIndex(dbPath, { readonly: true });
  let sessions: ChainSession[];
  let matched: string[];
  try {
    matched = selectProjects(project, projectRoot, index.projects());
    const wanted = new Set(matched);
    const forks = readForkedSessions(index).filter((fork) => wanted.has(fork.project));
    const parentOf = new Map(forks.map((fork) => [fork.id, fork.parentId]));
    const rows = index.getSessions([...new Set([...forks.map((fork) => fork.id), ...parentOf.values()])]);
    sessions = [...rows.values()].map((row) => ({
      id: row.id,
      parentId: parentOf.get(row.id) ?? null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      title: row.title,
      project: row.project,
      messageCount: row.messageCount,
      verdict: null,
      compactions: 0,
    }));
  } finally {
    index.close();
  }
  const { kept, leftOut } = newestFamilies(sessions, MAX_FAMILIES);
  let notice: string | null = null;
  const verdicts = new Map<string, ForkVerdict>();
  try {
    for (const fork of (await loadForkHistory({ env, projectRoot })).forks)
      verdicts.set(fork.sessionId, fork.outcome.verdict);
  } catch (error) {
    notice = `fork outcomes unavailable: ${describeError(error)}`;
  }
  const compactions = new Map<string, number>();
  for (const snapshot of await listSnapshots(projectRoot).catch(() => [])) {
    if (snapshot.trigger === "auto" || snapshot.trigger === "manual") {
      compactions.set(snapshot.sessionId, (compactions.get(snapshot.sessionId) ?? 0) + 1);
    }
  }
  const drawn = kept.map((session) => ({
    ...session,
    verdict: session.parentId === null ? null : (verdicts.get(session.id) ?? null),
    compactions: compactions.get(session.id) ?? 0,
  }));
  return { project, matched, sessions: drawn, familiesLeftOut: leftOut, notice };
}

/** The members of the `limit` families most recently active (a family: a root and everything forked from it). */
function newestFamilies(sessions: ChainSession[], limit: number): { kept: ChainSession[]; leftOut: number } {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const rootOf = (session: ChainSession): string => {
    let at = session;
    const seen = new Set<string>();
    while (at.parentId !== null && !seen.has(at.id)) {
      seen.add(at.id);
      const parent = byId.get(at.parentId);
      if (parent === undefined) break;
      at = parent;
    }
    return at.id;
  };
  const families = new Map<string, { members: ChainSession[]; active: number }>();
  for (const session of sessions) {
    const root = rootOf(session);
    const family = families.get(root) ?? { members: [], active: 0 };
    family.members.push(session);
    family.active = Math.max(family.active, session.updatedAt);
    families.set(root, family);
  }
  const ordered = [...families.entries()].sort(([a, x], [b, y]) => y.active - x.active || (a < b ? -1 : 1));
  return {
    kept: ordered.slice(0, limit).flatMap(([, family]) => family.members),
    leftOut: Math.max(0, ordered.length - limit),
  };
}
