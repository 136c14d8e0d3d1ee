// Waits, bounded, until the transcript holds a given line: the reply that made a tool call (its `tool_use` block's
// id, for ctx_guard_tick) or the turn's last reply (its text, for the Stop hook's guard step). Claude Code writes
// the transcript asynchronously: a PostToolUse or Stop hook can run before the reply's line lands, and the guard
// then reads the previous reply's usage. A command hook's own start-up (a Node process) usually
// covers the gap; an `mcp_tool` hook answered by a warm server does not (measured with 2.1.330 at load 14: in
// 2 of 8 calls the line was missing when the hook ran and landed 70-94 ms later, while the hook waited). Reads
// a bounded window at the end, then only the bytes added; never blocks on a pipe (regular files only). It says
// where the line holding the text ends, so a reading taken later (after more lines landed) can stop there.
import { closeSync, fstatSync, readSync, statSync } from "node:fs";
import { openRegularFileSync } from "../files/safe-path.ts";

/** Where the first look searches: the end of the file (a tool input larger than this is found only as it lands). */
export const AWAIT_WINDOW_BYTES = 1024 * 1024;

export type ToolUseWait = "present" | "arrived" | "timeout" | "missing";

export interface ToolUseWaitResult {
  outcome: ToolUseWait;
  waitedMs: number;
  /** `present` and `arrived`: the byte offset just past the line holding the text (its newline), else null. */
  lineEnd: number | null;
}

function readRange(fd: number, from: number, to: number): Buffer {
  const buffer = Buffer.allocUnsafe(to - from);
  let filled = 0;
  while (filled < buffer.length) {
    const n = readSync(fd, buffer, filled, buffer.length - filled, from + filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

/** Where the line holding `marker` ends in the bytes read from `from`, or null when they do not hold it. */
function lineEndOf(bytes: Buffer, from: number, marker: Buffer): number | null {
  const at = bytes.indexOf(marker);
  if (at === -1) return null;
  const newline = bytes.indexOf(0x0a, at + marker.length);
  return from + (newline === -1 ? bytes.length : newline + 1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface AwaitOptions {
  timeoutMs?: number;
  pollMs?: number;
  now?: () => number;
}

/**
 * `present`: the line was there; `arrived`: it landed while waiting; `timeout`: not within `timeoutMs` (the
 * caller goes on without it); `missing`: no transcript, or it was replaced (shrank) while waiting.
 * `toolUseId` must be a Claude Code id (letters, digits, `_`, `-`): it is searched as `"id":"<id>"`.
 */
export function awaitToolUseLine(
  path: string,
  toolUseId: string,
  options: AwaitOptions = {},
): Promise<ToolUseWaitResult> {
  return awaitTranscriptText(path, `"id":"${toolUseId}"`, options);
}

/**
 * The Stop hook's `last_assistant_message` as it appears inside the transcript's JSON: its first 120 characters,
 * JSON-escaped (a whole long reply may be split over several content-block lines). Null for an empty message.
 */
export function lastReplyMarker(lastAssistantMessage: string | null | undefined): string | null {
  let head = (lastAssistantMessage ?? "").trim().slice(0, 120);
  // Never half a surrogate pair: JSON would escape it, while the transcript holds the whole character.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return head === "" ? null : JSON.stringify(head).slice(1, -1);
}

/**
 * Waits, bounded, until something exists at `path`; true when it does. Claude Code creates a session's transcript
 * asynchronously too: the first tool call's PostToolUse hook can run before the file is there (seen with 2.1.330
 * under a loaded CI run: the first tick found no file, the second, 40 ms later, did).
 */
export async function awaitPathExists(path: string, options: AwaitOptions = {}): Promise<boolean> {
  const now = options.now ?? (() => performance.now());
  const deadline = now() + (options.timeoutMs ?? 500);
  for (;;) {
    if (statSync(path, { throwIfNoEntry: false }) !== undefined) return true;
    if (now() >= deadline) return false;
    await sleep(options.pollMs ?? 5);
  }
}

/** Waits until the transcript's bytes hold `marker` (the same outcomes as awaitToolUseLine). */
export async function awaitTranscriptText(
  path: string,
  marker: string,
  options: AwaitOptions = {},
): Promise<ToolUseWaitResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const waited = () => Math.round((now() - started) * 10) / 10;
  const fd = openRegularFileSync(path);
  if (fd === null) return { outcome: "missing", waitedMs: 0, lineEnd: null };
  const needle = Buffer.from(marker, "utf8");
  try {
    let seen = fstatSync(fd).size;
    const windowStart = Math.max(0, seen - AWAIT_WINDOW_BYTES);
    const present = lineEndOf(readRange(fd, windowStart, seen), windowStart, needle);
    if (present !== null) return { outcome: "present", waitedMs: waited(), lineEnd: present };
    const deadline = started + (options.timeoutMs ?? 500);
    while (now() < deadline) {
      await sleep(options.pollMs ?? 5);
      const size = fstatSync(fd).size;
      if (size < seen) return { outcome: "missing", waitedMs: waited(), lineEnd: null };
      if (size === seen) continue;
      // The new bytes, and a marker's length before them (a line split across two polls).
      const from = Math.max(0, seen - needle.length, size - AWAIT_WINDOW_BYTES);
      seen = size;
      const arrived = lineEndOf(readRange(fd, from, size), from, needle);
      if (arrived !== null) return { outcome: "arrived", waitedMs: waited(), lineEnd: arrived };
    }
    return { outcome: "timeout", waitedMs: waited(), lineEnd: null };
  } finally {
    closeSync(fd);
  }
}
