// The record a `ctx reindex` run keeps of itself (`<ctx home>/reindex.json`, 0600, replaced atomically): when it
// started, how far it got, how it ended. `ctx stats` shows it, and the ctx_index tool's `reindex` op reads it to say
// how a rebuild it started is going, and never to start a second while one runs. A record that says running whose
// process is gone reads as `stopped`. A damaged or foreign file reads as no record.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ctxHome } from "../../config/paths.ts";
import { type RebuildRecord, RebuildRecordSchema } from "../../core/search/index-stats-schema.ts";
import { describeError } from "../../errors.ts";
import { ensurePrivateDir, writeFileAtomic } from "../../store/files/atomic-write.ts";
import { isProcessAlive } from "../../store/files/process-alive.ts";

/** Progress is written at most this often (a rebuild reports every file). */
const PROGRESS_EVERY_MS = 1_000;

export function rebuildRecordPath(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "reindex.json");
}

export function readRebuildRecord(env: NodeJS.ProcessEnv, isAlive = isProcessAlive): RebuildRecord | null {
  let text: string;
  try {
    text = readFileSync(rebuildRecordPath(env), "utf8");
  } catch {
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = RebuildRecordSchema.safeParse(value);
  if (!parsed.success) return null;
  const record = parsed.data;
  return record.outcome === "running" && !isAlive(record.pid) ? { ...record, outcome: "stopped" } : record;
}

export async function writeRebuildRecord(env: NodeJS.ProcessEnv, record: RebuildRecord): Promise<void> {
  await ensurePrivateDir(ctxHome(env));
  await writeFileAtomic(rebuildRecordPath(env), `${JSON.stringify(record)}\n`);
}

export interface RebuildRecorder {
  progress(done: number, total: number): void;
  finish(outcome: "done" | "interrupted", sessions: number): Promise<void>;
  fail(error: unknown): Promise<void>;
}

/**
 * Records the run of this process: started now, its progress (throttled, one write at a time), its end. A write that
 * fails is reported through `onWriteError` and never fails the rebuild.
 */
export async function startRebuildRecord(
  env: NodeJS.ProcessEnv,
  options: { pid?: number; now?: () => number; onWriteError?: (message: string) => void } = {},
): Promise<RebuildRecorder> {
  const now = options.now ?? Date.now;
  let record = runningRecord(options.pid ?? process.pid, now());
  let writing: Promise<void> = Promise.resolve();
  let lastWrite = 0;
  const write = () => {
    const snapshot = { ...record, updatedAt: now() };
    lastWrite = snapshot.updatedAt;
    writing = writing
      .then(() => writeRebuildRecord(env, snapshot))
      .catch((error) => options.onWriteError?.(`could not record the reindex: ${describeError(error)}`));
    return writing;
  };
  await write();
  return {
    progress(done, total) {
      record = { ...record, done, total };
      if (now() - lastWrite >= PROGRESS_EVERY_MS) void write();
    },
    finish(outcome, sessions) {
      record = { ...record, outcome, sessions, finishedAt: now() };
      return write();
    },
    fail(error) {
      record = { ...record, outcome: "failed", error: describeError(error).slice(0, 500), finishedAt: now() };
      return write();
    },
  };
}

/** A rebuild just started by `pid`: nothing done yet. */
export function runningRecord(pid: number, now: number): RebuildRecord {
  return {
    pid,
    startedAt: now,
    updatedAt: now,
    finishedAt: null,
    outcome: "running",
    done: 0,
    total: 0,
    sessions: null,
    error: null,
  };
}
