// A lock between test processes: a folder made with mkdir (atomic), removed when the work ends; one older than
// STALE_LOCK_MS belongs to a killed run and is taken over. For installs into a machine-wide cache that parallel test
// files or runs may start at once (Claude Code's CLI, the embedder's packages).
import { mkdir, rm, stat } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

const STALE_LOCK_MS = 10 * 60_000;
const LOCK_POLL_MS = 500;

export async function withDirLock<T>(lockDir: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(lockDir).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rm(lockDir, { recursive: true, force: true });
      else await delay(LOCK_POLL_MS);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}
