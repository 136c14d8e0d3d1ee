// The guard's per-session files under `.ctx/guard/`: `<session>.json` (the measurements and tier, written by
// the PostToolUse hook) and `<session>.statusline.json` (the exact figures Claude Code's status line last
// received), and `<session>.tick.json` (./tick-handoff.ts): apart, so their writers never overwrite each
// other. Synchronous and small: the hook runs after every tool call. Written to a temp file and renamed (a reader sees the old
// or the new file, never half of one), 0600 in a 0700 folder; no fsync: a lost measurement only delays a
// warning by one tool call, and an fsync per tool call would cost more than the whole guard.
import { closeSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { type GuardState, parseGuardState } from "../../core/guard/state.ts";
import { isCtxPathSafe, openRegularFileSync, replaceFileSync } from "../files/safe-path.ts";

export function guardDir(projectRoot: string): string {
  return join(projectPaths(projectRoot).ctxDir, "guard");
}

/** Session ids are UUIDs; anything else is reduced to a safe file name. */
export function guardFileStem(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return safe === "" ? "_" : safe;
}

export function guardStatePath(projectRoot: string, sessionId: string): string {
  return join(guardDir(projectRoot), `${guardFileStem(sessionId)}.json`);
}

export function statusLinePath(projectRoot: string, sessionId: string): string {
  return join(guardDir(projectRoot), `${guardFileStem(sessionId)}.statusline.json`);
}

/** A guard file's JSON, or null (absent, not a regular file, unreadable or not JSON: the guard starts afresh).
 *  Only a regular file is opened: a FIFO left in its place never blocks the hook. */
export function readGuardJson(path: string): unknown {
  let fd: number | null = null;
  try {
    fd = openRegularFileSync(path);
    return fd === null ? null : JSON.parse(readFileSync(fd, "utf8"));
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function readGuardState(projectRoot: string, sessionId: string): GuardState | null {
  const state = parseGuardState(readGuardJson(guardStatePath(projectRoot, sessionId)));
  return state !== null && state.sessionId === sessionId ? state : null;
}

/** Writes `value` as JSON; false (nothing written) when the project has no `.ctx/` (ctx not set up here). */
export function writeGuardFile(projectRoot: string, path: string, value: unknown): boolean {
  const ctxDir = projectPaths(projectRoot).ctxDir;
  // lstat: a `.ctx` that is a link is not ctx's folder (nothing is written through it).
  if (!lstatSync(ctxDir, { throwIfNoEntry: false })?.isDirectory() || !isCtxPathSafe(guardDir(projectRoot)))
    return false;
  mkdirSync(guardDir(projectRoot), { recursive: true, mode: 0o700 });
  replaceFileSync(path, JSON.stringify(value));
  return true;
}

export function writeGuardState(projectRoot: string, state: GuardState): boolean {
  return writeGuardFile(projectRoot, guardStatePath(projectRoot, state.sessionId), state);
}

/** The figures the status line recorded for a session (its stdin, as received), or null. */
export function readStatusLineFigures(projectRoot: string, sessionId: string): Record<string, unknown> | null {
  const value = readGuardJson(statusLinePath(projectRoot, sessionId));
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The guard state most recently updated in this project (the session most recently seen), or null. */
export function readNewestGuardState(projectRoot: string): GuardState | null {
  let names: string[];
  try {
    names = readdirSync(guardDir(projectRoot));
  } catch {
    return null;
  }
  let newest: GuardState | null = null;
  for (const name of names) {
    if (!name.endsWith(".json") || name.endsWith(".statusline.json") || name.endsWith(".tick.json")) continue;
    const state = parseGuardState(readGuardJson(join(guardDir(projectRoot), name)));
    if (state !== null && (newest === null || state.updatedAt > newest.updatedAt)) newest = state;
  }
  return newest;
}

/** A session's files: the status line's, the tick handoff's (./tick-handoff.ts), the state (longest first). */
const SESSION_FILE_SUFFIXES = [".statusline.json", ".tick.json", ".json"];

/** Sessions whose guard files are kept; older ones (by modification time) are removed when a new session starts. */
export const KEPT_GUARD_SESSIONS = 20;

/** Removes the files of all but the newest `keep` sessions. Run once per new session, not per tool call. */
export function pruneGuardFiles(projectRoot: string, keep = KEPT_GUARD_SESSIONS): string[] {
  const dir = guardDir(projectRoot);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const sessions = new Map<string, number>();
  for (const name of names) {
    const suffix = SESSION_FILE_SUFFIXES.find((end) => name.endsWith(end));
    if (suffix === undefined) continue;
    const stem = name.slice(0, -suffix.length);
    const mtime = statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    sessions.set(stem, Math.max(sessions.get(stem) ?? 0, mtime));
  }
  const old = [...sessions.entries()].sort((a, b) => b[1] - a[1]).slice(keep);
  const removed: string[] = [];
  for (const [stem] of old) {
    for (const suffix of SESSION_FILE_SUFFIXES) {
      try {
        unlinkSync(join(dir, stem + suffix));
        removed.push(stem + suffix);
      } catch {
        // already gone, or never written
      }
    }
  }
  return removed;
}
