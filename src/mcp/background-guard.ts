// ctx_guard_tick's work after its answer: the tick answers Claude Code at once, and the server measures the call
// here when the reply that made it has reached the transcript (Claude Code writes it asynchronously, often tens
// of milliseconds after the hook ran), then acts on it (interval checkpoint, the guard's step, its saves and
// snapshots) and leaves the guard's note in the session's handoff for the next tick or the Stop hook
// (store/guard/tick-handoff.ts). Per session, measurements run one after the other in call order, each reading
// its own reply even when later lines have landed meanwhile; sessions do not wait for each other. Each is bounded
// (the line wait, then the work), and `settle` lets the server finish them before it exits; a server killed
// mid-way leaves its mark, and the Stop hook or the next tick measures instead.
import { describeError } from "../errors.ts";
import { isProcessAlive } from "../store/files/process-alive.ts";
import { type AfterToolCallResult, afterToolCall } from "../store/guard/after-tool-call.ts";
import { joinReplies, type Measuring, updateTickHandoff } from "../store/guard/tick-handoff.ts";
import type { GuardDeps } from "../store/guard/types.ts";
import { awaitToolUseLine } from "../store/transcript/await-tool-use.ts";

/** How long a measurement waits for its reply's line before it reads the transcript as it is. */
export const LINE_WAIT_MS = 2_000;
/** What a measurement may take after the wait (the highest tiers save, checkpoint and snapshot). */
const ACT_MS = 2_000;

export interface GuardTickInput {
  session_id: string;
  transcript_path: string;
}

interface SessionQueue {
  /** The last measurement accepted: the next one runs after it. */
  last: Promise<void>;
  /** Accepted and not finished. */
  queued: number;
}

export class BackgroundGuard {
  private readonly sessions = new Map<string, SessionQueue>();
  private readonly lineWaitMs: number;
  private readonly pollMs: number | undefined;
  private readonly pid: number;

  /** `pollMs`: how often a measurement looks for its reply's line (default: await-tool-use.ts's). */
  constructor(options: { lineWaitMs?: number; pollMs?: number; pid?: number } = {}) {
    this.lineWaitMs = options.lineWaitMs ?? LINE_WAIT_MS;
    this.pollMs = options.pollMs;
    this.pid = options.pid ?? process.pid;
  }

  /**
   * Accepts the measurement of one tool call (`toolUseId`: the call whose reply to wait for; null: the
   * transcript as it is) and returns at once. The session's handoff is marked as measuring until it is done.
   */
  accept(input: GuardTickInput, toolUseId: string | null, deps: GuardDeps): void {
    const queue = this.sessions.get(input.session_id) ?? { last: Promise.resolve(), queued: 0 };
    this.sessions.set(input.session_id, queue);
    queue.queued += 1;
    // Each measurement waiting behind the others may take its whole bound.
    this.mark(input.session_id, { pid: this.pid, until: Date.now() + queue.queued * (this.lineWaitMs + ACT_MS) }, deps);
    queue.last = queue.last
      .then(() => this.measure(input, toolUseId, deps))
      .then((result) => this.finish(input.session_id, queue, result, deps));
  }

  /** Resolves once every measurement accepted (of one session, or of all) has finished; each is bounded. */
  async settle(sessionId?: string): Promise<void> {
    for (;;) {
      const pending = [...this.sessions.entries()]
        .filter(([id]) => sessionId === undefined || id === sessionId)
        .map(([, queue]) => queue.last);
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  private mark(sessionId: string, measuring: Measuring, deps: GuardDeps): void {
    try {
      updateTickHandoff(deps.projectRoot, sessionId, (current) => {
        // A mark left by a server that is gone: its measurement was lost; this one reads the transcript as it
        // is now, and the checkpoint counter counts from where that one left off.
        const lost = current.measuring;
        if (lost !== null && lost.pid !== this.pid && !isProcessAlive(lost.pid)) {
          deps.logger.warn(`guard: server ${lost.pid} ended before measuring a tool call of session ${sessionId}`);
        }
        return { ...current, measuring };
      });
    } catch (error) {
      deps.logger.warn(`guard: cannot mark the measurement of session ${sessionId}: ${describeError(error)}`);
    }
  }

  private async measure(
    input: GuardTickInput,
    toolUseId: string | null,
    deps: GuardDeps,
  ): Promise<AfterToolCallResult> {
    try {
      const wait =
        toolUseId === null
          ? null
          : await awaitToolUseLine(input.transcript_path, toolUseId, {
              timeoutMs: this.lineWaitMs,
              ...(this.pollMs === undefined ? {} : { pollMs: this.pollMs }),
            });
      if (wait?.outcome === "timeout") {
        deps.logger.info(`ctx_guard_tick: ${toolUseId} not in the transcript after ${wait.waitedMs} ms`);
      }
      const replyEnd = wait?.lineEnd ?? null;
      return await afterToolCall(input, deps, replyEnd === null ? {} : { replyEnd });
    } catch (error) {
      return { reply: null, failures: [`guard measurement failed: ${describeError(error)}`] };
    }
  }

  private finish(sessionId: string, queue: SessionQueue, result: AfterToolCallResult, deps: GuardDeps): void {
    queue.queued -= 1;
    if (queue.queued === 0) this.sessions.delete(sessionId);
    for (const failure of result.failures) deps.logger.warn(`ctx_guard_tick: ${failure}`);
    try {
      updateTickHandoff(deps.projectRoot, sessionId, (current) => ({
        sessionId,
        measuring: queue.queued > 0 ? current.measuring : null,
        note: joinReplies(current.note, result.reply),
        failures: [...current.failures, ...result.failures],
      }));
    } catch (error) {
      deps.logger.warn(`guard: cannot hand on the measurement of session ${sessionId}: ${describeError(error)}`);
    }
  }
}
