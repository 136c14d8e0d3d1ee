// A rebuild of the session index started from the MCP server (`/reindex`, the ctx_index tool's `reindex` op): the
// same `ctx reindex` a person runs, as a detached, low-priority child, so the server answers at once and goes on
// serving while it runs (minutes at 10,000 sessions), and the rebuild outlives the Claude Code session that asked for
// it. The child records its progress (./rebuild-record.ts); a second start while one runs returns that one's record.
import type { RebuildRecord } from "../../core/search/index-stats-schema.ts";
import { CtxError } from "../../errors.ts";
import { LOW_PRIORITY, startDetachedCtx } from "../../store/process/detached-child.ts";
import { readRebuildRecord, runningRecord, writeRebuildRecord } from "./rebuild-record.ts";

export interface RebuildJobOptions {
  env: NodeJS.ProcessEnv;
  /** The ctx CLI entry (`dist/ctx.js`); "" when the server was not started from it (then nothing can be started). */
  cliPath: string;
  execPath?: string;
  now?: () => number;
}

export interface RebuildStart {
  /** False: a rebuild was already running; `record` is that one. */
  started: boolean;
  record: RebuildRecord;
}

export async function startIndexRebuild(options: RebuildJobOptions): Promise<RebuildStart> {
  const running = readRebuildRecord(options.env);
  if (running?.outcome === "running") return { started: false, record: running };
  if (options.cliPath === "") {
    throw new CtxError("INTERNAL", "this ctx server cannot start a rebuild: it does not know where ctx is", {
      hint: "run `ctx reindex` in a terminal",
    });
  }
  const pid = startDetachedCtx(["reindex", "--quiet"], {
    cliPath: options.cliPath,
    execPath: options.execPath,
    env: options.env,
    priority: LOW_PRIORITY,
  });
  if (pid === undefined) {
    throw new CtxError("INTERNAL", "could not start `ctx reindex`", { hint: "run `ctx reindex` in a terminal" });
  }
  // The child writes its own record once it runs; until then this one says it started (unless it already wrote).
  const now = (options.now ?? Date.now)();
  const provisional = runningRecord(pid, now);
  const written = readRebuildRecord(options.env);
  if (written?.pid !== pid) await writeRebuildRecord(options.env, provisional);
  return { started: true, record: written?.pid === pid ? written : provisional };
}
