// Rolling checkpoints for crash recovery: the state alone, LZ4, one container per checkpoint under
// `.ctx/checkpoints/<id>.ctx`, the newest N kept. Written from post-tool-use / stop, so the write path is
// one atomic file write and a folder listing: no lock (ids never collide, and deleting the oldest is
// idempotent), no catalog (the time-sortable file names are the order), no read-back (readers verify).
import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import type { $ZodType, output } from "zod/v4/core";
import { defaultConfig } from "../../config/defaults.ts";
import { projectPaths } from "../../config/paths.ts";
import { selectCheckpointsToPrune, sortNewestFirst } from "../../core/snapshots/retention.ts";
import { CtxError, describeError, isCtxError } from "../../errors.ts";
import { ensurePrivateDir, removeOrphanedTempFiles, TEMP_NAME, writeFileAtomic } from "../files/atomic-write.ts";
import { HOT_CODEC } from "../files/codecs.ts";
import { decodeContainer, encodeContainer } from "../files/container.ts";
import { ensureProjectCtxDir } from "../files/project-dir.ts";
import { describeIssues } from "../files/schema-issues.ts";
import { ignoreMissing, readIfPresent } from "./catalog.ts";
import { newTimeId, TIME_ID_PATTERN, timeOfId } from "./time-id.ts";

export const CheckpointMetaSchema = z.object({
  id: z.string().check(z.regex(TIME_ID_PATTERN)),
  sessionId: z.string(),
  createdAt: z.iso.datetime(),
  /** Transcript messages seen when the checkpoint was taken (what the interval counts). */
  messageCount: z.int().check(z.nonnegative()),
});
export type CheckpointMeta = z.infer<typeof CheckpointMetaSchema>;

const CheckpointFileSchema = z.object({ meta: CheckpointMetaSchema, state: z.unknown() });

/** A checkpoint as the folder shows it, without decoding it. */
export interface CheckpointEntry {
  id: string;
  createdAt: string;
  fileBytes: number;
  path: string;
}

export interface Checkpoint<S extends $ZodType> {
  meta: CheckpointMeta;
  state: output<S>;
}

export interface WriteCheckpointInput<S extends $ZodType> {
  sessionId: string;
  state: output<S>;
  stateSchema: S;
  messageCount: number;
}

export interface WriteCheckpointOptions {
  /** How many checkpoints to keep, this one included (default: config checkpoints.keep, 10). */
  keep?: number;
  now?: Date;
}

/** Writes a checkpoint, then deletes all but the newest `keep`. Returns the new meta, its file and the ids deleted. */
export async function writeCheckpoint<S extends $ZodType>(
  projectRoot: string,
  input: WriteCheckpointInput<S>,
  options: WriteCheckpointOptions = {},
): Promise<{ meta: CheckpointMeta; path: string; pruned: string[] }> {
  const parsed = z.safeParse(input.stateSchema, input.state);
  if (!parsed.success) {
    throw new CtxError("INTERNAL", `refusing to checkpoint: ${describeIssues(parsed.error.issues, input.state)}`, {
      hint: "This is a bug in ctx; please report it with the message above.",
    });
  }
  const { id, createdAt } = newTimeId(options.now ?? new Date());
  const meta: CheckpointMeta = { id, sessionId: input.sessionId, createdAt, messageCount: input.messageCount };
  const encoded = encodeContainer({ meta, state: parsed.data }, HOT_CODEC);
  await ensureProjectCtxDir(projectRoot);
  const dir = projectPaths(projectRoot).checkpoints;
  await ensurePrivateDir(dir);
  const path = checkpointFile(dir, id);
  await writeFileAtomic(path, encoded);

  const names = await readdir(dir);
  const keep = Math.max(1, options.keep ?? defaultConfig().checkpoints.keep);
  const pruned = selectCheckpointsToPrune(entriesOf(names), keep).filter((other) => other !== id);
  for (const old of pruned) await unlink(checkpointFile(dir, old)).catch(ignoreMissing);
  // Only writers killed mid-write leave temp files; look for old ones only when the listing shows some.
  if (names.some((name) => TEMP_NAME.test(name))) await removeOrphanedTempFiles(dir);
  return { meta, path, pruned };
}

/** The project's checkpoints, newest first, from the folder listing alone (nothing is decoded). */
export async function listCheckpoints(projectRoot: string): Promise<CheckpointEntry[]> {
  const dir = projectPaths(projectRoot).checkpoints;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const entries = await Promise.all(
    entriesOf(names).map(async ({ id, createdAt }) => {
      const path = checkpointFile(dir, id);
      const info = await stat(path).catch(() => null);
      return info?.isFile() ? { id, createdAt, fileBytes: info.size, path } : null;
    }),
  );
  return sortNewestFirst(entries.filter((entry) => entry !== null));
}

/** One checkpoint, verified (checksum and schema); null when there is none. Damage is STATE_CORRUPT. */
export async function readCheckpoint<S extends $ZodType>(
  projectRoot: string,
  id: string,
  stateSchema: S,
): Promise<Checkpoint<S> | null> {
  if (!TIME_ID_PATTERN.test(id)) return null;
  const path = checkpointFile(projectPaths(projectRoot).checkpoints, id);
  const bytes = await readIfPresent(path);
  if (bytes === null) return null;
  const { value } = decodeContainer(bytes, path);
  const file = z.safeParse(CheckpointFileSchema, value);
  if (!file.success) throw corruptCheckpoint(path, describeIssues(file.error.issues, value));
  if (file.data.meta.id !== id) throw corruptCheckpoint(path, `holds checkpoint ${file.data.meta.id}, not ${id}`);
  const state = z.safeParse(stateSchema, file.data.state);
  if (!state.success) throw corruptCheckpoint(path, `state ${describeIssues(state.error.issues, file.data.state)}`);
  return { meta: file.data.meta, state: state.data };
}

export interface NewestGoodCheckpoint<S extends $ZodType> {
  checkpoint: Checkpoint<S> | null;
  /** Newer checkpoints that failed to verify, newest first, with what was wrong. */
  skipped: { id: string; problem: string }[];
}

/** The newest checkpoint that verifies, skipping (and reporting) damaged or unreadable newer ones. */
export async function newestGoodCheckpoint<S extends $ZodType>(
  projectRoot: string,
  stateSchema: S,
): Promise<NewestGoodCheckpoint<S>> {
  const skipped: { id: string; problem: string }[] = [];
  for (const entry of await listCheckpoints(projectRoot)) {
    try {
      const checkpoint = await readCheckpoint(projectRoot, entry.id, stateSchema);
      if (checkpoint !== null) return { checkpoint, skipped };
    } catch (error) {
      if (!isCtxError(error) || (error.code !== "STATE_CORRUPT" && error.code !== "STATE_UNSUPPORTED_VERSION")) {
        throw error;
      }
      skipped.push({ id: entry.id, problem: describeError(error) });
    }
  }
  return { checkpoint: null, skipped };
}

function checkpointFile(dir: string, id: string): string {
  return join(dir, `${id}.ctx`);
}

function entriesOf(names: readonly string[]): { id: string; createdAt: string }[] {
  const entries: { id: string; createdAt: string }[] = [];
  for (const name of names) {
    if (!name.endsWith(".ctx")) continue;
    const id = name.slice(0, -".ctx".length);
    const createdAt = timeOfId(id);
    if (createdAt !== null) entries.push({ id, createdAt });
  }
  return entries;
}

function corruptCheckpoint(path: string, problem: string): CtxError {
  return new CtxError("STATE_CORRUPT", `${path}: ${problem}`, {
    hint: "This checkpoint is damaged; ctx falls back to the next older one. Delete it when convenient.",
  });
}
