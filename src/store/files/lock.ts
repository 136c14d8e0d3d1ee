// Cross-process writer lock for one file: a hook process and the MCP server update the same state.
// The lock is `<target>.lock`, an atomically created record naming its owner (lock-file.ts,
// lock-owner.ts). A lock whose owner died is taken over at once; one whose owner cannot be verified,
// once its mtime (kept fresh by the holder) is older than staleMs. Takeovers are serialised by
// `<target>.lock.break`, so two waiters that both judge a lock stale cannot remove each other's new lock.
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { randomHex } from "../../core/text/random-hex.ts";
import { CtxError } from "../../errors.ts";
import { ensurePrivateDir } from "./atomic-write.ts";
import { createLockRecord, readLockRecord, removeLockRecord, touchLockRecord } from "./lock-file.ts";
import { checkOwnerStatus, describeOwnProcess, type LockOwner, parseLockOwner } from "./lock-owner.ts";

export interface LockOptions {
  /** Give up with LOCK_TIMEOUT after this long (default 10 s). */
  timeoutMs?: number;
  /** An unverifiable owner's lock counts as abandoned when not refreshed for this long (default 10 s). */
  staleMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_STALE_MS = 10_000;
const MAX_POLL_MS = 25;

/** Runs `fn` while holding the lock for `targetPath`; the lock is released however `fn` ends. */
export async function withLock<T>(targetPath: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const lockPath = `${targetPath}.lock`;
  const record = await acquire(lockPath, timeoutMs, staleMs);
  await clearAbandonedBreak(lockPath, staleMs);
  const refresh = setInterval(() => void touchLockRecord(lockPath).catch(() => undefined), staleMs / 3);
  refresh.unref();
  try {
    return await fn();
  } finally {
    clearInterval(refresh);
    // Remove it only if it is still ours: after a takeover (we were judged abandoned) it is someone else's.
    const current = await readLockRecord(lockPath);
    if (current?.text === record) await removeLockRecord(lockPath);
  }
}

export interface ObservedLock {
  owner: LockOwner | null;
  text: string;
  mtimeMs: number;
}

/** Takes the lock, returning the record text that marks it as ours. */
async function acquire(lockPath: string, timeoutMs: number, staleMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const record = newRecord();
  let pollMs = 1;
  for (;;) {
    if (await create(lockPath, record)) return record;
    const observed = await observeLock(lockPath);
    if (observed === null) continue; // released between our attempt and our look: try again at once
    if (isAbandoned(observed, staleMs) && (await breakAbandonedLock(lockPath, observed, staleMs))) continue;
    if (Date.now() >= deadline) throw timeoutError(lockPath, observed.owner, timeoutMs);
    await sleep(pollMs * (1 + Math.random()));
    pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
  }
}

function newRecord(): string {
  return JSON.stringify(describeOwnProcess(randomHex(8)));
}

async function create(path: string, record: string): Promise<boolean> {
  try {
    return await createLockRecord(path, record);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await ensurePrivateDir(dirname(path));
    return createLockRecord(path, record);
  }
}

/** The lock record at `path` and its parsed owner, or null when there is none. */
export async function observeLock(path: string): Promise<ObservedLock | null> {
  const found = await readLockRecord(path);
  return found === null ? null : { ...found, owner: parseLockOwner(found.text) };
}

function isAbandoned(observed: ObservedLock, staleMs: number): boolean {
  // A record this ctx cannot parse (another version, a damaged file) is judged by its age alone.
  const status = observed.owner === null ? "unverified" : checkOwnerStatus(observed.owner);
  if (status === "dead") return true;
  return status === "unverified" && Date.now() - observed.mtimeMs > staleMs;
}

/**
 * Removes an abandoned lock, but only if it is still the very record judged abandoned (each record holds
 * a random token): re-read and compare under the break lock. False when another waiter is breaking it.
 */
export async function breakAbandonedLock(lockPath: string, judged: ObservedLock, staleMs: number): Promise<boolean> {
  const breakPath = `${lockPath}.break`;
  const breakRecord = newRecord();
  if (!(await create(breakPath, breakRecord))) {
    // Breaking takes a few system calls; a break record that stays means its owner died in between.
    await clearAbandonedBreak(lockPath, staleMs);
    return false;
  }
  try {
    await removeIfUnchanged(lockPath, judged.text);
    return true;
  } finally {
    await removeIfUnchanged(breakPath, breakRecord);
  }
}

/**
 * Removes a break record whose owner died (or went stale): a breaker killed after taking the break lock leaves it.
 * A waiter that finds it while breaking clears it, and so does the lock's next holder, since once the lock it broke
 * is gone no waiter has a reason to look (one failed readlink when there is none).
 */
async function clearAbandonedBreak(lockPath: string, staleMs: number): Promise<void> {
  const left = await observeLock(`${lockPath}.break`);
  if (left !== null && isAbandoned(left, staleMs)) await removeIfUnchanged(`${lockPath}.break`, left.text);
}

async function removeIfUnchanged(path: string, text: string): Promise<void> {
  const current = await readLockRecord(path);
  if (current?.text === text) await removeLockRecord(path);
}

function timeoutError(lockPath: string, owner: LockOwner | null, timeoutMs: number): CtxError {
  const holder = owner === null ? "an unknown process (unreadable lock record)" : `pid ${owner.pid} on ${owner.host}`;
  return new CtxError("LOCK_TIMEOUT", `${lockPath}: still held by ${holder} after ${timeoutMs} ms`, {
    hint:
      owner === null
        ? "Another ctx process is writing this file; retry in a moment."
        : `Another ctx process (pid ${owner.pid}) is writing this file. If it hangs, end it; ctx takes over a lock whose process has exited.`,
  });
}
