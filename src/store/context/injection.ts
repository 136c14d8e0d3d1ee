// `.ctx/injection.ctx`: the pending compact re-injection (see src/core/context/injection.ts), and the check
// whether its token reached the transcript (a raw byte search of the transcript's tail, no parsing).
import { open } from "node:fs/promises";
import { join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { checkInjection } from "../../core/context/injection-schema.compiled.ts";
import type { Injection } from "../../core/context/injection-schema.ts";
import { updateStateFileOrQuarantine } from "../files/quarantine.ts";
import { readStateFile } from "../files/state-file.ts";

/** How much of the transcript's end is searched: the injection is near the compaction boundary. */
const TAIL_BYTES = 8 * 1024 * 1024;

const injectionPath = (projectRoot: string) => join(projectPaths(projectRoot).ctxDir, "injection.ctx");

export async function readInjection(projectRoot: string): Promise<Injection | null> {
  return readStateFile(injectionPath(projectRoot), checkInjection).catch(() => null);
}

export async function writeInjection(projectRoot: string, next: Injection, now: Date): Promise<void> {
  await updateStateFileOrQuarantine(injectionPath(projectRoot), checkInjection, () => next, { codec: "none", now });
}

export async function transcriptContains(transcriptPath: string, token: string): Promise<boolean> {
  const handle = await open(transcriptPath, "r").catch(() => null);
  if (handle === null) return false;
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.includes(token);
  } finally {
    await handle.close();
  }
}
