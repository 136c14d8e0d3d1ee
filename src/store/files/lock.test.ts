import { spawnSync } from "node:child_process";
import {
  lstatSync,
  lutimesSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CtxError } from "../../errors.ts";
import { breakAbandonedLock, observeLock, withLock } from "./lock.ts";
import { lockRecordStyle } from "./lock-file.ts";
import { describeOwnProcess, type LockOwner } from "./lock-owner.ts";

let dir: string;
let target: string;
let lockPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-lock-"));
  target = join(dir, "state.ctx");
  lockPath = `${target}.lock`;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  lockRecordStyle.symlinks = process.platform !== "win32";
});

/** Whether anything (a dangling symlink too) is at `path`; existsSync follows symlinks. */
const present = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  if (child.pid === undefined) throw new Error("could not spawn node");
  return child.pid;
}

function plantLock(owner: Partial<LockOwner> | string, ageMs = 0, path = lockPath): void {
  const text = typeof owner === "string" ? owner : JSON.stringify({ ...describeOwnProcess("planted"), ...owner });
  rmSync(path, { force: true });
  if (lockRecordStyle.symlinks) symlinkSync(text, path);
  else writeFileSync(path, text);
  const when = new Date(Date.now() - ageMs);
  lutimesSync(path, when, when);
}

/** Runs `count` lockers at once and returns the most that were ever inside together. */
async function maxConcurrency(count: number, options = {}): Promise<number> {
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: count }, () =>
      withLock(
        target,
        async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((resolve) => setImmediate(resolve));
          inside--;
        },
        options,
      ),
    ),
  );
  return most;
}

describe.each([
  ["symlink", true],
  ["file", false],
] as const)("withLock with %s records", (_style, symlinks) => {
  beforeEach(() => {
    lockRecordStyle.symlinks = symlinks && process.platform !== "win32";
  });

  it("stores the owner record in the lock", async () => {
    await withLock(target, () => {
      const info = lstatSync(lockPath);
      expect(info.isSymbolicLink()).toBe(lockRecordStyle.symlinks);
      const text = info.isSymbolicLink() ? readlinkSync(lockPath) : String(readFileSync(lockPath));
      expect(JSON.parse(text)).toMatchObject({ pid: process.pid });
    });
  });

  it("lets one holder in at a time and cleans up after all of them", async () => {
    expect(await maxConcurrency(8)).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("returns fn's value and removes the lock", async () => {
    expect(await withLock(target, () => 42)).toBe(42);
    expect(present(lockPath)).toBe(false);
  });

  it("removes the lock when fn throws, and rethrows", async () => {
    await expect(
      withLock(target, () => {
        expect(present(lockPath)).toBe(true);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(present(lockPath)).toBe(false);
  });

  it("creates the folder when it is missing", async () => {
    const nested = join(dir, "a", "b", "state.ctx");
    expect(await withLock(nested, () => "ok")).toBe("ok");
    expect(statSync(join(dir, "a", "b")).mode & 0o777).toBe(0o700);
  });

  it("times out naming the lock file and the holder's pid", async () => {
    let releaseHolder!: () => void;
    const held = new Promise<void>((resolve) => {
      releaseHolder = resolve;
    });
    const holder = withLock(target, () => held);
    await vi.waitFor(() => expect(present(lockPath)).toBe(true));
    const error = await withLock(target, () => 1, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CtxError);
    expect((error as CtxError).code).toBe("LOCK_TIMEOUT");
    expect((error as CtxError).message).toContain(lockPath);
    expect((error as CtxError).message).toContain(`pid ${process.pid}`);
    releaseHolder();
    await holder;
    expect(present(lockPath)).toBe(false);
  });
});

describe.each([
  ["symlink", true],
  ["file", false],
] as const)("abandoned %s locks", (_style, symlinks) => {
  beforeEach(() => {
    lockRecordStyle.symlinks = symlinks && process.platform !== "win32";
  });

  // staleMs of a minute: these must be taken over for a dead owner, not by waiting for staleness.
  const patient = { timeoutMs: 5_000, staleMs: 60_000 };

  it("takes over at once from a holder that died", async () => {
    plantLock({ pid: deadPid() });
    expect(await withLock(target, () => "mine", patient)).toBe("mine");
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(process.platform !== "linux")("takes over from a recycled pid (start time differs)", async () => {
    plantLock({ startTime: "1" });
    expect(await withLock(target, () => "mine", patient)).toBe("mine");
  });

  it("takes over a lock from another host once it is older than staleMs, not before", async () => {
    plantLock({ host: `elsewhere-${hostname()}` });
    const early = await withLock(target, () => 1, { timeoutMs: 30, staleMs: 60_000 }).catch((e: unknown) => e);
    expect((early as CtxError).code).toBe("LOCK_TIMEOUT");
    plantLock({ host: `elsewhere-${hostname()}` }, 120_000);
    expect(await withLock(target, () => "mine", patient)).toBe("mine");
  });

  it("judges a record it cannot read (empty, partial, another version) by age only", async () => {
    const unreadable = symlinks ? '{"pid": "partial' : "";
    plantLock(unreadable);
    const early = await withLock(target, () => 1, { timeoutMs: 30, staleMs: 60_000 }).catch((e: unknown) => e);
    expect((early as CtxError).message).toMatch(/unknown process/);
    plantLock(unreadable, 120_000);
    expect(await withLock(target, () => "mine", patient)).toBe("mine");
  });

  it("clears a break file left by a breaker that died", async () => {
    plantLock({ pid: deadPid() });
    plantLock({ pid: deadPid() }, 0, `${lockPath}.break`);
    expect(await withLock(target, () => "mine", patient)).toBe("mine");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("clears a break file its dead breaker left after the lock itself was gone", async () => {
    plantLock({ pid: deadPid() }, 0, `${lockPath}.break`);
    expect(await withLock(target, () => "mine", patient)).toBe("mine");
    expect(readdirSync(dir)).toEqual([]);
    plantLock({}, 0, `${lockPath}.break`); // a live breaker's record is left alone
    expect(await withLock(target, () => "mine", patient)).toBe("mine");
    expect(readdirSync(dir)).toEqual(["state.ctx.lock.break"]);
  });

  it("does not remove a new lock that replaced the one judged abandoned (two waiters, one stale verdict)", async () => {
    plantLock({ pid: deadPid() });
    const verdict = await observeLock(lockPath); // waiter B judges the dead lock abandoned, then stalls
    if (verdict === null) throw new Error("no lock planted");
    await withLock(target, async () => {
      // Waiter A already took over and holds a fresh lock; B's late takeover must leave it alone.
      expect(await breakAbandonedLock(lockPath, verdict, 60_000)).toBe(true);
      expect(present(lockPath)).toBe(true);
      expect((await observeLock(lockPath))?.owner?.pid).toBe(process.pid);
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("leaves the takeover to the waiter that holds the break lock", async () => {
    plantLock({ pid: deadPid() });
    plantLock({}, 0, `${lockPath}.break`); // a live breaker (this process) is at work
    const verdict = await observeLock(lockPath);
    if (verdict === null) throw new Error("no lock planted");
    expect(await breakAbandonedLock(lockPath, verdict, 60_000)).toBe(false);
    expect(present(lockPath)).toBe(true);
  });

  it("keeps mutual exclusion when many waiters find the same dead lock", async () => {
    plantLock({ pid: deadPid() });
    expect(await maxConcurrency(10, patient)).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("holder refresh", () => {
  it("keeps its lock's mtime fresh while fn runs", async () => {
    await withLock(
      target,
      async () => {
        const past = new Date(Date.now() - 3_600_000);
        lutimesSync(lockPath, past, past);
        await vi.waitFor(() => expect(Date.now() - lstatSync(lockPath).mtimeMs).toBeLessThan(60_000), {
          timeout: 2_000,
          interval: 5,
        });
      },
      { staleMs: 60 },
    );
  });
});
