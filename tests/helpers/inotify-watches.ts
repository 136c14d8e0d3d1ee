// Counts a process's inotify watches the way the kernel lists them: each inotify descriptor's
// /proc/<pid>/fdinfo/<fd> holds one `inotify wd:` line per watch. Linux only; 0 where /proc is not readable.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** The number of inotify watches `pid` holds, over all its inotify descriptors. */
export function inotifyWatchCount(pid: number | "self" = "self"): number {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return 0;
  }
  let watches = 0;
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== "anon_inode:inotify") continue;
      const info = readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8");
      watches += info.split("\n").filter((line) => line.startsWith("inotify wd:")).length;
    } catch {
      // The descriptor closed between the listing and the read.
    }
  }
  return watches;
}

/** Resident memory of `pid` in bytes (VmRSS), or 0 when the process is gone. */
export function residentBytes(pid: number | "self" = "self"): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
