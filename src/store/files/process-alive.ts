// Whether a process recorded by its pid still runs (a status report's crashed session, a server's unfinished
// measurement). Its own small file: the every-call hook entry imports it, and must not load what its other
// users do.

/**
 * Signal 0 checks for the process without touching it; EPERM means it exists under another user. A pid read from a
 * file that is not a positive integer names no process (0 and a negative pid would signal a whole process group).
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
