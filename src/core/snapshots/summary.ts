// Pure facts about a snapshot for listings and messages: transcript line counts, counts of what an
// opaque state holds, and sizes as people read them.

import { isPlainObject } from "../json/record.ts";

/** Complete lines, plus a last line still being written (Claude Code appends while hooks run). */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}

/** Array lengths in the state's first two levels, e.g. { todos: 3, "files.read": 12 }. */
export function summarizeState(state: unknown): Record<string, number> {
  const summary: Record<string, number> = {};
  if (!isPlainObject(state)) return summary;
  for (const [key, value] of Object.entries(state)) {
    if (Array.isArray(value)) summary[key] = value.length;
    else if (isPlainObject(value)) {
      for (const [inner, innerValue] of Object.entries(value)) {
        if (Array.isArray(innerValue)) summary[`${key}.${inner}`] = innerValue.length;
      }
    }
  }
  return summary;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
