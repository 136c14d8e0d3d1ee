// Who holds a lock file and whether that process still exists. The record names pid, host and the
// process's start time, so a dead holder (or a recycled pid, on Linux) is recognised at once.
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import * as z from "zod/mini";

export const LockOwnerSchema = z.object({
  pid: z.number(),
  host: z.string(),
  /** Linux: clock ticks after boot at which the process started (/proc/<pid>/stat field 22); null elsewhere. */
  startTime: z.nullable(z.string()),
  /** Random per acquisition: tells this lock apart from a later one by the same process. */
  token: z.string(),
  acquiredAt: z.number(),
});
export type LockOwner = z.infer<typeof LockOwnerSchema>;

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
    const parsed = LockOwnerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
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
