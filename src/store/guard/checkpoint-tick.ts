// The rolling checkpoint, run after every tool call and at the end of every turn (the PostToolUse and Stop
// hooks, and the ctx_guard_tick MCP tool that an `mcp_tool` hook calls instead). Each call counts the messages the session's transcript
// grew by (`.ctx/checkpoint-mark.json`, a small counter per session) and, every
// `checkpoints.intervalMessages` messages, captures the state into a checkpoint (keeping the newest
// `checkpoints.keep`). The counter is written without fsync or lock: it is a hint, not state; a tick lost
// to a power cut or to another session's concurrent write only delays (or repeats) a checkpoint.
// Synchronous file calls on purpose: a few tiny reads and writes, and the first asynchronous fs call of a
// process starts libuv's thread pool, which costs this every-tool-call hook several milliseconds.
import { closeSync, readFileSync, readSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import type { Config } from "../../config/schema.ts";
import {
  type CheckpointMark,
  countMessageLines,
  finishTick,
  holdsToolCall,
  parseCheckpointMark,
  planTick,
} from "../../core/guard/checkpoint-tick.ts";
import type { Logger } from "../../log.ts";
import { isCtxPathSafe, openRegularFileSync, replaceFileSync } from "../files/safe-path.ts";

/** What a tick needs: the project, its settings, the clock and a logger (the hook's and the server's deps both fit). */
export interface TickDeps {
  projectRoot: string;
  config: Config;
  now: () => Date;
  logger: Logger;
}

const MAX_READ_BYTES = 4 * 1024 * 1024;

export interface TickResult {
  /**
   * The transcript holds a tool call no tick has followed: it grew by a `tool_use` since the session's last
   * tick (or, for a session never ticked, in its last 4 MiB). The Stop hook then steps the guard itself (an `mcp_tool`
   * PostToolUse hook is skipped while ctx's server is not connected). Only looked for when asked
   * (`findUntickedToolCall`): after a tool call it is known, and the tail read would cost every call.
   */
  untickedToolCall: boolean;
}

export async function checkpointTick(
  input: { session_id: string; transcript_path: string },
  deps: TickDeps,
  options: { findUntickedToolCall?: boolean } = {},
): Promise<TickResult> {
  const markPath = join(projectPaths(deps.projectRoot).ctxDir, "checkpoint-mark.json");
  const info = statSync(input.transcript_path, { throwIfNoEntry: false });
  if (!info?.isFile()) return { untickedToolCall: false }; // absent, or not a regular file (a FIFO would block)
  const size = info.size;
  const mark = readMark(markPath);
  const plan = planTick(mark, input.session_id, size, MAX_READ_BYTES, deps.now());
  const neverTicked = mark === null || !Object.hasOwn(mark.sessions, input.session_id);
  const read = readNewText(input.transcript_path, plan.read.from, plan.read.to);
  const counted = countMessageLines(read);
  // A session never ticked: its tail (the bytes a tick would read) tells whether a tool call went unticked.
  const untickedToolCall =
    options.findUntickedToolCall === true &&
    holdsToolCall(neverTicked ? readNewText(input.transcript_path, Math.max(0, size - MAX_READ_BYTES), size) : read);
  const tick = finishTick(plan, counted, deps.config.checkpoints.intervalMessages);
  if (tick.checkpoint) {
    const { checkpointContext } = await import("../context/operations.ts");
    const result = await checkpointContext(
      { projectRoot: deps.projectRoot, config: deps.config, now: deps.now },
      { sessionId: input.session_id, transcriptPath: input.transcript_path },
    );
    deps.logger.debug(`checkpoint ${result.id} written`);
  }
  writeMark(markPath, tick.next);
  return { untickedToolCall };
}

function readMark(path: string): CheckpointMark | null {
  try {
    return parseCheckpointMark(JSON.parse(readFileSync(path, "utf8")));
  } catch {
    return null;
  }
}

function readNewText(path: string, from: number, to: number): string {
  if (to <= from) return "";
  const fd = openRegularFileSync(path);
  if (fd === null) return "";
  try {
    const buffer = Buffer.alloc(to - from);
    readSync(fd, buffer, 0, buffer.length, from);
    return buffer.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

function writeMark(path: string, mark: CheckpointMark): void {
  if (!isCtxPathSafe(dirname(path))) return; // a linked .ctx/ is never written through
  try {
    replaceFileSync(path, JSON.stringify(mark));
  } catch (error) {
    // No .ctx/ yet (ctx never initialised here, no session recorded): nothing to count against.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
