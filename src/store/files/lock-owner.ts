// Who holds a lock file and whether that process still exists. The record names pid, host and the
// process's start time, so a dead holder (or a recycled pid, on Linux) is recognised at once.
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { checkLockOwner } from "./lock-owner-schema.compiled.ts";
import type { LockOwner } from "./lock-owner-schema.ts";

export type { LockOwner } from "./lock-owner-schema.ts";

/**
 * alive: provably the same running process (pid and start time match).
 * unverified: a process with that pid exists (or the owner is on another host) but may be a recycled pid.
 * dead: no such process, a zombie, or a different process under a recycled pid.
 */
export type OwnerStatus = "alive" | "unverified" | "dead";

let ownStartTime: string | null | undefined;
let procfsMounted: boolean | undefined;

export function describeOwnProcess(token: string): LockOwner {
  if (ownStartTime === undefined) {
    const own = readProcStat(process.pid);
    ownStartTime = own === null || own === "missing" ? null : own.startTime;
  }
  return { pid: process.pid, host: hostname(), startTime: ownStartTime, token, acquiredAt: Date.now() };
}

/** The owner recorded in a lock file's text, or null when it is empty, partial or not ours. */
export function parseLockOwner(text: string): LockOwner | null {
  try {
    const checked = checkLockOwner(JSON.parse(text));
    return checked.ok ? checked.value : null;
  } catch {
    return null;
  }
}

export function checkOwnerStatus(owner: LockOwner): OwnerStatus {
  if (owner.host !== hostname()) return "unverified";
  const stat = readProcStat(owner.pid);
  if (stat === "missing") return "dead";
  if (stat !== null) {
    if (stat.state === "Z" || stat.state === "X") return "dead";
    if (owner.startTime === null) return "unverified";
    return stat.startTime === owner.startTime ? "alive" : "dead";
  }
  // No procfs (macOS, Windows): signal 0 tells whether the pid exists, not whether it is the same process.
  try {
    process.kill(owner.pid, 0);
    return "unverified";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "unverified" : "dead";
  }
}

interface ProcStat {
  state: string;
  startTime: string;
}

/** Linux procfs view of a process: its stat, "missing" when the pid does not exist, null without procfs. */
function readProcStat(pid: number): ProcStat | "missing" | null {
  procfsMounted ??= process.platform === "linux" && existsSync("/proc/self/stat");
  if (!procfsMounted) return null;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : null;
  }
  // "pid (comm) state ppid ...": comm may contain spaces and parentheses, so split after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTime = fields[19];
  return state === undefined || startTime === undefined ? null : { state, startTime };
}
