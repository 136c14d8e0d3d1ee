// The bridge's first two steps at start: its store (its folder, Claude's workdir, the lock that makes it the one
// bridge of this CTX_HOME) and the journal recovered from it (what a crash or a stop left owed). Each fails with
// an error that says what to do, and lets go of what it took.
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import type { OpenWork } from "../core/bridge/journal.ts";
import { CtxError, isCtxError } from "../errors.ts";
import { type Journal, type JournalWrite, openJournal } from "../store/bridge/journal-store.ts";
import { ensurePrivateDir } from "../store/files/atomic-write.ts";
import { withLock } from "../store/files/lock.ts";
import { requireUserFolder } from "../store/files/user-file.ts";

export interface BridgeStore {
  /** The bridge's folder under CTX_HOME (journal, lock). */
  dir: string;
  /** Claude's working folder, resolved (Claude Code names its transcript folder after the resolved path). */
  workdir: string;
  /** Lets the lock go; resolves once it is. */
  release(): Promise<void>;
}

/**
 * Makes the bridge's folder (ctx's own, 0700) and checks the workdir: the default one under CTX_HOME is ctx's
 * own too; one the person configured is theirs: it must exist, and its mode is kept. Then takes the bridge's lock
 * for the bridge's life (a killed bridge's lock is taken over; a running one's is an error naming the folder).
 */
export async function openBridgeStore(options: {
  dir: string;
  workdir: string;
  /** True when the workdir is the default under CTX_HOME, false when the person configured it. */
  ownWorkdir: boolean;
  lockTimeoutMs?: number;
}): Promise<BridgeStore> {
  await ensurePrivateDir(options.dir);
  if (options.ownWorkdir) await ensurePrivateDir(options.workdir);
  else await requireUserFolder(options.workdir);
  const workdir = await realpath(options.workdir);

  let letGo: () => void = () => {};
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let acquired: () => void = () => {};
  const gotLock = new Promise<void>((resolve) => (acquired = resolve));
  const held = withLock(
    join(options.dir, "bridge"),
    async () => {
      acquired();
      await released;
    },
    { timeoutMs: options.lockTimeoutMs ?? 2_000 },
  );
  try {
    await Promise.race([gotLock, held]);
  } catch (error) {
    if (isCtxError(error) && error.code === "LOCK_TIMEOUT") {
      throw new CtxError("USAGE", `another ctx bridge is running with ${options.dir}`, {
        hint: "stop it first (systemctl --user stop ctx-bridge), or give this one its own CTX_HOME",
        cause: error,
      });
    }
    throw error;
  }
  return {
    dir: options.dir,
    workdir,
    release: async () => {
      letGo();
      await held.catch(() => undefined);
    },
  };
}

export interface RecoveredJournal {
  journal: Journal;
  /** What is still owed, in order of acceptance. */
  open: OpenWork[];
  /** Post keys accepted lately (answered or not), for the webhook's check of a message sent again. */
  seen: string[];
}

/**
 * Opens the journal and replays it. A journal that cannot be opened (a pipe, folder or link at its path) stops
 * the start: the error says which path, and the store's lock is let go.
 */
export async function recoverJournal(
  store: BridgeStore,
  options: { write?: JournalWrite; log: (line: string) => void },
): Promise<RecoveredJournal> {
  const opened = await openJournal(store.dir, options.write === undefined ? {} : { write: options.write }).catch(
    async (error: unknown) => {
      await store.release();
      throw error;
    },
  );
  if (opened.skipped > 0)
    options.log(`bridge: skipped ${opened.skipped} damaged journal line(s) (a crash's last write)`);
  if (opened.open.length > 0)
    options.log(`bridge: resuming ${opened.open.length} message(s) accepted before the last stop`);
  return { journal: opened.journal, open: opened.open, seen: opened.seen };
}
