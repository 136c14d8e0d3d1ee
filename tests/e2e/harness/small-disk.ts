// A small tmpfs for the bridge's CTX_HOME, so a disk can be filled and freed on purpose (issue #22, break 1 and the
// chaos run). Mounting needs Linux and root (CI runs as root); elsewhere the caller is told why it cannot.
import { execFileSync } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";

/** Mounts a tmpfs of `size` (mount's syntax: "2m") at `dir`; the reason it could not, or null. */
export function mountSmallTmpfs(dir: string, size = "2m"): string | null {
  if (process.platform !== "linux") return `tmpfs mounts need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return "mounting a tmpfs needs root (CI runs as root)";
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir], { stdio: "pipe" });
    return null;
  } catch (error) {
    return `mount -t tmpfs was refused here: ${(error as Error).message.split("\n")[0]}`;
  }
}

/** Never left mounted: a lazy unmount when something still holds it. */
export function unmountSmallTmpfs(dir: string): void {
  try {
    execFileSync("umount", [dir], { stdio: "pipe" });
  } catch {
    execFileSync("umount", ["-l", dir], { stdio: "pipe" });
  }
}

/** Takes every free page of the file system holding `path` (tmpfs hands out whole pages). */
export function fillDisk(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (const size of [1_048_576, 4096]) {
      const block = Buffer.alloc(size, 120);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}
