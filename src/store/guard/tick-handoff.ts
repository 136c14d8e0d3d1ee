// What the server's background guard measurements hand on (`.ctx/guard/<session>.tick.json`, beside the guard
// state): whether a measurement is still under way in a running `ctx serve` (its pid, and until when it may
// take), and the guard's reply and failures that no tick has passed to Claude Code yet. ctx_guard_tick answers
// at once and measures after its answer, so the next tick of the session passes the note on (one call late);
// the Stop hook waits for a measurement under way, shows the user's line, and leaves the model's note to the
// next tick. Synchronous and unlocked like the other guard files: a session's ticks come from one server, one
// at a time, and the Stop hook writes only once that server's measurement is done (or its server is gone).
import { unlinkSync } from "node:fs";
import { join } from "node:path";
import { checkTickHandoff } from "../../core/guard/tick-handoff-schema.compiled.ts";
import type { TickHandoff } from "../../core/guard/tick-handoff-schema.ts";
import { isProcessAlive } from "../files/process-alive.ts";
import { guardDir, guardFileStem, readGuardJson, writeGuardFile } from "./guard-store.ts";
import type { GuardReply } from "./types.ts";

export type { Measuring, TickHandoff } from "../../core/guard/tick-handoff-schema.ts";

/** What a tick or Stop takes from the handoff. */
export interface HandedOn {
  note: GuardReply | null;
  failures: string[];
}

export const TICK_HANDOFF_SUFFIX = ".tick.json";

export function tickHandoffPath(projectRoot: string, sessionId: string): string {
  return join(guardDir(projectRoot), `${guardFileStem(sessionId)}${TICK_HANDOFF_SUFFIX}`);
}

/** The session's handoff, or null (none, unreadable, malformed, or another session's). */
export function readTickHandoff(projectRoot: string, sessionId: string): TickHandoff | null {
  const checked = checkTickHandoff(readGuardJson(tickHandoffPath(projectRoot, sessionId)));
  return checked.ok && checked.value.sessionId === sessionId ? checked.value : null;
}

/** Reads, changes and writes the session's handoff; removes the file once nothing is left in it. */
export function updateTickHandoff(
  projectRoot: string,
  sessionId: string,
  change: (current: TickHandoff) => TickHandoff,
): void {
  const current = readTickHandoff(projectRoot, sessionId) ?? { sessionId, measuring: null, note: null, failures: [] };
  const next = change(current);
  const path = tickHandoffPath(projectRoot, sessionId);
  if (next.measuring === null && next.note === null && next.failures.length === 0) {
    try {
      unlinkSync(path);
    } catch {
      // never written, or already gone
    }
    return;
  }
  writeGuardFile(projectRoot, path, next);
}

/** Two notes not yet passed on, in order: both texts; the later user line. */
export function joinReplies(earlier: GuardReply | null, later: GuardReply | null): GuardReply | null {
  if (earlier === null || later === null) return earlier ?? later;
  return {
    additionalContext: `${earlier.additionalContext}\n\n${later.additionalContext}`,
    systemMessage: later.systemMessage ?? earlier.systemMessage,
  };
}

/** Takes the note and failures not yet passed on (a tick answering); a measurement under way stays marked. */
export function takeHandedOn(projectRoot: string, sessionId: string): HandedOn {
  let taken: HandedOn = { note: null, failures: [] };
  const current = readTickHandoff(projectRoot, sessionId);
  if (current === null || (current.note === null && current.failures.length === 0)) return taken; // nothing to write
  updateTickHandoff(projectRoot, sessionId, (current) => {
    taken = { note: current.note, failures: current.failures };
    return { ...current, note: null, failures: [] };
  });
  return taken;
}

/** Takes only the user's line (Stop, where a note for the model would come after its turn): the note stays. */
export function takeUserLine(projectRoot: string, sessionId: string): string | null {
  const line = readTickHandoff(projectRoot, sessionId)?.note?.systemMessage ?? null;
  if (line === null) return null;
  updateTickHandoff(projectRoot, sessionId, (current) => ({
    ...current,
    note: current.note === null ? null : { ...current.note, systemMessage: null },
  }));
  return line;
}

export type MeasuredOutcome = "none" | "done" | "busy" | "abandoned";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits while a running server measures this session (Stop, in its own process): `none` when nothing was under
 * way, `done` when it finished, `abandoned` when its server is gone or its time ran out (the mark is then
 * cleared, and the caller measures instead), `busy` when it is still at work after `maxWaitMs` (the caller goes
 * on without it, within its own time limit; the server still finishes).
 */
export async function awaitServerMeasurement(
  projectRoot: string,
  sessionId: string,
  options: { isAlive?: (pid: number) => boolean; pollMs?: number; maxWaitMs?: number } = {},
): Promise<MeasuredOutcome> {
  const isAlive = options.isAlive ?? isProcessAlive;
  const giveUpAt = Date.now() + (options.maxWaitMs ?? 3_000);
  let waited = false;
  for (;;) {
    const measuring = readTickHandoff(projectRoot, sessionId)?.measuring ?? null;
    if (measuring === null) return waited ? "done" : "none";
    if (!isAlive(measuring.pid) || Date.now() >= measuring.until) {
      updateTickHandoff(projectRoot, sessionId, (current) => ({ ...current, measuring: null }));
      return "abandoned";
    }
    if (Date.now() >= giveUpAt) return "busy";
    waited = true;
    await sleep(options.pollMs ?? 10);
  }
}
