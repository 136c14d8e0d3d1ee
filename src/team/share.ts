// `ctx team share|unshare|forget`: the user's decisions about what leaves the machine. Sharing is recorded in ctx's
// own state under CTX_HOME (src/store/team/team-state.ts), never in a file the repository commits. Sharing adds the
// project on the server and queues the sessions already indexed for it; unsharing stops queueing and drops what was
// still queued (what the server has stays until `forget`). Forget deletes the member's own sessions on the server
// (row-level security lets a member delete nothing else) and drops them from the outbox.
import { realpath } from "node:fs/promises";
import type { ProjectIdentity } from "../core/team/project-identity.ts";
import { CtxError, describeError } from "../errors.ts";
import { openSessionIndex } from "../search/session-index/session-index.ts";
import {
  dropOutboxSessions,
  enqueueSessionsUnder,
  isInsideRoot,
  readQueuedSessions,
} from "../search/session-index/team-outbox.ts";
import { addSharedProject, readSharedProjects, removeSharedRoot, sharedRoots } from "../store/team/team-state.ts";
import { checkoutIdentity } from "../transplant/checkout-identity.ts";
import { type TeamConnectOptions, withTeamClient } from "./connect.ts";
import { requireMembership } from "./inspect.ts";
import { upsertProject } from "./push-write.ts";

export interface TeamServer {
  url: string;
  team: string;
  options: TeamConnectOptions;
}

export interface ShareResult {
  project: ProjectIdentity;
  root: string;
  /** False when this checkout was shared already. */
  added: boolean;
  /** Sessions already in the local index queued for the first push. */
  queued: number;
  /** The project's id on the server, or null when the server could not be reached (it is added at the first push). */
  serverProjectId: string | null;
  serverError: string | null;
}

export async function shareProject(input: {
  env: NodeJS.ProcessEnv;
  folder: string;
  dbPath: string;
  server: TeamServer;
}): Promise<ShareResult> {
  const project = await checkoutIdentity(input.folder);
  const root = await realpath(input.folder);
  let serverProjectId: string | null = null;
  let serverError: string | null = null;
  try {
    serverProjectId = await withTeamClient(input.server.url, input.server.options, async (client) => {
      const member = await requireMembership(client, input.server.team);
      return upsertProject(client, member.id, project);
    });
  } catch (error) {
    if (error instanceof CtxError && error.code === "TEAM_REFUSED") throw error;
    serverError = describeError(error);
  }
  const added = await addSharedProject(input.env, project, root);
  const index = openSessionIndex(input.dbPath);
  let queued: number;
  try {
    queued = enqueueSessionsUnder(index, [root]);
  } finally {
    index.close();
  }
  return { project, root, added, queued, serverProjectId, serverError };
}

export interface UnshareResult {
  root: string;
  project: ProjectIdentity | null;
  /** Queued sessions dropped (never pushed). */
  dropped: number;
}

export async function unshareProject(input: {
  env: NodeJS.ProcessEnv;
  folder: string;
  dbPath: string;
}): Promise<UnshareResult> {
  const root = await realpath(input.folder).catch(() => input.folder);
  const removed = await removeSharedRoot(input.env, root);
  const stillShared = sharedRoots(await readSharedProjects(input.env));
  const index = openSessionIndex(input.dbPath);
  let dropped = 0;
  try {
    const ids = readQueuedSessions(index)
      .filter(
        (s) =>
          s.cwd === null || (isInsideRoot(s.cwd, root) && !stillShared.some((r) => isInsideRoot(s.cwd as string, r))),
      )
      .map((s) => s.sessionId);
    dropOutboxSessions(index, ids);
    dropped = ids.length;
  } finally {
    index.close();
  }
  return {
    root,
    project: removed === null ? null : { remoteUrl: removed.remoteUrl, repoPath: removed.repoPath },
    dropped,
  };
}

export interface ForgetResult {
  /** The sessions deleted on the server (their chunks and transcripts went with them). */
  deleted: string[];
}

/** Deletes this member's sessions on the server: the given ids, or all of them (`mine`), or those of `project`. */
export async function forgetSessions(input: {
  server: TeamServer;
  dbPath: string;
  ids?: readonly string[];
  project?: ProjectIdentity;
}): Promise<ForgetResult> {
  const deleted = await withTeamClient(input.server.url, input.server.options, async (client) => {
    const member = await requireMembership(client, input.server.team);
    const params: unknown[] = [member.id];
    let where = "";
    if (input.ids !== undefined) {
      params.push(input.ids);
      where += ` AND id = ANY($${params.length}::text[])`;
    }
    if (input.project !== undefined) {
      params.push(input.project.remoteUrl, input.project.repoPath);
      where += ` AND project_id IN (SELECT id FROM ctx_team.projects WHERE team_id = $1::bigint AND remote_url = $${params.length - 1}::text AND repo_path = $${params.length}::text)`;
    }
    const { rows } = await client.query<{ id: string }>(
      `DELETE FROM ctx_team.sessions WHERE team_id = $1::bigint AND author = current_user${where} RETURNING id`,
      params,
    );
    return rows.map((r) => r.id).sort();
  });
  // Not pushed again by what was still queued (new activity in a still-shared project is pushed as usual).
  const index = openSessionIndex(input.dbPath);
  try {
    dropOutboxSessions(index, deleted);
  } finally {
    index.close();
  }
  return { deleted };
}
