// The background pusher: after an ingest queued work for a shared project, ctx starts a detached, low-priority
// `ctx team push --background` (as SessionEnd starts its background index) and never waits for it. One pusher at a
// time: it holds `<CTX_HOME>/team/pusher.lock` (store/files/lock.ts: a lock whose process died is taken over at
// once) and exits when the outbox is empty; another one started meanwhile finds the lock held and exits at once. The
// holder looks at the outbox again after letting go of the lock, so work queued by a pusher that gave way is never
// left behind. A server that cannot be reached ends the run (after team.connectTimeoutMs): the outbox keeps the work
// for the next ingest's pusher or `ctx team push`. A session the server refuses for its own data is set aside
// (src/team/set-aside.ts) and no longer counts as pending, so the run still ends when the rest is pushed.
import { join } from "node:path";
import { describeError, isCtxError } from "../errors.ts";
import { openSessionIndex } from "../search/session-index/session-index.ts";
import { outboxDepth } from "../search/session-index/team-outbox.ts";
import { withLock } from "../store/files/lock.ts";
import { LOW_PRIORITY, startDetachedCtx } from "../store/process/detached-child.ts";
import { recordPush, teamStateDir } from "../store/team/team-state.ts";
import { emptyPushSummary, type PushOptions, type PushSummary, pushPending } from "./push.ts";

export function pusherLockTarget(env: NodeJS.ProcessEnv): string {
  return join(teamStateDir(env), "pusher");
}

export interface StartPusherOptions {
  env: NodeJS.ProcessEnv;
  /** dist/ctx.js */
  cliPath: string;
  execPath?: string;
}

/** Starts a detached `ctx team push --background`; returns its pid (undefined when it could not start). */
export function startBackgroundPusher(options: StartPusherOptions): number | undefined {
  if (options.cliPath === "") return undefined;
  return startDetachedCtx(["team", "push", "--background"], {
    cliPath: options.cliPath,
    execPath: options.execPath,
    env: options.env,
    priority: LOW_PRIORITY,
  });
}

export type BackgroundPushResult =
  | { outcome: "pushed"; summary: PushSummary }
  | { outcome: "busy" }
  | { outcome: "failed"; error: string };

/**
 * The body of `ctx team push --background` (and of `ctx team push`, which waits for a running pusher instead of
 * leaving): drains the outbox under the pusher lock, records the outcome for `ctx team status`.
 */
export async function drainOutbox(
  options: PushOptions,
  lock: { waitMs: number } = { waitMs: 0 },
): Promise<BackgroundPushResult> {
  const total: PushSummary = emptyPushSummary();
  for (let round = 0; ; round += 1) {
    let held = false;
    try {
      const summary = await withLock(
        pusherLockTarget(options.env),
        () => {
          held = true;
          // Sessions set aside are released once (`--retry-set-aside`), not again by each later round.
          return pushPending(round === 0 ? options : { ...options, retrySetAside: false });
        },
        { timeoutMs: lock.waitMs },
      );
      for (const key of Object.keys(total) as Array<keyof PushSummary>) total[key] += summary[key];
    } catch (error) {
      if (isCtxError(error) && error.code === "LOCK_TIMEOUT" && !held) {
        // Another pusher took over after our round: the work is its now.
        if (round === 0) return { outcome: "busy" };
        break;
      }
      const text = describeError(error);
      await recordPush(options.env, { ok: false, error: text }).catch(() => {});
      return { outcome: "failed", error: text };
    }
    // Queued while we held the lock by an ingest whose pusher gave way: ours to push.
    if (pendingItems(options.dbPath) === 0 || options.signal?.aborted === true) break;
  }
  await recordPush(options.env, { ok: true, sessions: total.sessions, chunks: total.chunks }).catch(() => {});
  return { outcome: "pushed", summary: total };
}

function pendingItems(dbPath: string): number {
  const index = openSessionIndex(dbPath);
  try {
    return outboxDepth(index).items;
  } finally {
    index.close();
  }
}
