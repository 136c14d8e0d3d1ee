// The compaction snapshot store: the transcript as it stood, the extracted state and metadata, under
// `.ctx/snapshots/`. Written LZ4 on the pre-compact hook's hot path and read back and verified before it
// counts; recompressed to zstd-19 later, off the hook path (archive-worker.ts). Every change to the
// folder (new file, pin, prune, recompression) happens under the catalog lock together with its catalog update.
//
// Layout: one container per snapshot, `<id>.ctx` = msgpack { meta, state, transcript: bytes }. One file
// means one atomic rename: a snapshot exists whole or not at all, with no pairing of files to get right
// after a crash, and recompression rewrites one file. The cost, decoding a whole file to learn its
// meta, is paid only when index.json must be rebuilt. Pins live in `<id>.pin` markers, so pinning never
// rewrites megabytes and survives the loss of the catalog.
// Past 300 lines on purpose: create, list, pin and prune share one locking protocol, checked in one place.
import { createHash } from "node:crypto";
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import { safeParse } from "zod/mini";
import type { $ZodType, output } from "zod/v4/core";
import { defaultConfig } from "../../config/defaults.ts";
import { projectPaths } from "../../config/paths.ts";
import {
  type PruneReason,
  type RetentionPolicy,
  retentionPolicyFromConfig,
  selectSnapshotsToPrune,
} from "../../core/snapshots/retention.ts";
import { countLines, formatBytes, summarizeState } from "../../core/snapshots/summary.ts";
import { CtxError } from "../../errors.ts";
import { ensurePrivateDir, removeOrphanedTempFiles, writeFileAtomic } from "../files/atomic-write.ts";
import { headerCodec, type WriteCodec } from "../files/codecs.ts";
import { decodeContainer, encodeContainer } from "../files/container.ts";
import { type LockOptions, withLock } from "../files/lock.ts";
import { openRegularFile } from "../files/open-regular.ts";
import { ensureProjectCtxDir } from "../files/project-dir.ts";
import { describeIssues } from "../files/schema-issues.ts";
import {
  catalogFile,
  catalogMatchesFolder,
  entryOf,
  ignoreMissing,
  pinFile,
  readCatalog,
  readIfPresent,
  reconcileCatalog,
  type SNAPSHOT_TRIGGERS,
  type SnapshotEntry,
  SnapshotFileSchema,
  type SnapshotMeta,
  scanSnapshotFolder,
  snapshotFile,
  writeCatalog,
} from "./catalog.ts";
import { newTimeId, TIME_ID_PATTERN } from "./time-id.ts";
import { transformInBlocks } from "./transform-blocks.ts";

export type { SnapshotEntry, SnapshotMeta } from "./catalog.ts";
export type SnapshotTrigger = (typeof SNAPSHOT_TRIGGERS)[number];

export interface CreateSnapshotInput<S extends $ZodType> {
  sessionId: string;
  trigger: SnapshotTrigger;
  state: output<S>;
  stateSchema: S;
  /** The transcript to keep, as it stands now; none for a snapshot of the state alone. */
  transcriptPath?: string;
  /** Applied to the transcript's text before it is stored (secret redaction: nothing unredacted is persisted),
   *  one block of whole lines at a time, so no transcript is ever held in one string. */
  transformTranscript?: (text: string) => string;
  /** A transcript larger than this is not kept: the snapshot holds the state alone (default: 64 MiB). Size is
   *  never a reason to fail a snapshot, so never a reason to block a compaction. */
  maxTranscriptBytes?: number;
  /** Names the transform (e.g. the redactor's version and allowlist). With it, a snapshot of a transcript that
   *  only grew since this session's previous snapshot reuses that snapshot's transformed bytes and transforms
   *  only the lines added since. */
  transformKey?: string;
  /** The transcript read and transformed already (prepareSnapshotTranscript, started earlier so that it overlaps
   *  other work); used instead of reading `transcriptPath` here. */
  preparedTranscript?: Promise<PreparedTranscript>;
  name?: string;
  /** Counts for listings; by default, the length of each array in the state's top two levels. */
  stateSummary?: Record<string, number>;
}

/** What prepareSnapshotTranscript needs: CreateSnapshotInput's transcript fields. */
export interface TranscriptPreparation {
  sessionId: string;
  transcriptPath: string;
  transformTranscript?: (text: string) => string;
  /** The same transform over the raw bytes, block by block as transformInBlocks cuts them, done elsewhere (a
   *  worker thread: redact-thread.ts); must give exactly what transformInBlocks(raw, transformTranscript) gives. */
  transformRaw?: (raw: Uint8Array) => Promise<Uint8Array>;
  maxTranscriptBytes?: number;
  transformKey?: string;
}

export type PreparedTranscript =
  | { path: string; bytes: Uint8Array; lines: number; source?: TranscriptSource }
  | { path: string; omittedBytes: number };

/**
 * The transcript as a snapshot keeps it: read, transformed (only the lines added since this session's previous
 * snapshot, when it only grew), or omitted when too large. Throws NOT_FOUND when the transcript does not exist.
 */
export function prepareSnapshotTranscript(
  projectRoot: string,
  input: TranscriptPreparation,
): Promise<PreparedTranscript> {
  return readTranscript(
    input.transcriptPath,
    input.transformTranscript,
    input.maxTranscriptBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES,
    input.transformKey === undefined
      ? undefined
      : {
          key: input.transformKey,
          previous: (path, key) => previousTransformed(projectRoot, input.sessionId, path, key),
        },
    input.transformRaw,
  );
}

export interface CreateSnapshotOptions extends LockOptions {
  codec: WriteCodec;
  /** Enforced after the snapshot is written (default: the config defaults, 5 / 30 days / 500 MiB). */
  retention?: RetentionPolicy;
  now?: Date;
}

export interface PrunedSnapshot {
  id: string;
  reason: PruneReason;
  fileBytes: number;
}

export interface CreateSnapshotResult {
  snapshot: SnapshotEntry;
  pruned: PrunedSnapshot[];
  /** Pinned snapshots alone exceed the size limit by this much (0 normally): tell the person. */
  overLimitPinnedBytes: number;
}

export interface SnapshotContents<S extends $ZodType> {
  snapshot: SnapshotEntry;
  state: output<S>;
  transcript: Uint8Array;
}

/**
 * Writes a snapshot, reads it back and verifies it (checksum and schema), then enforces retention. Throws
 * STORAGE_LIMIT, before writing anything, when even pruning every unpinned snapshot would not make room,
 * and STATE_CORRUPT when the file did not verify (it is removed; earlier snapshots are untouched).
 */
export async function createSnapshot<S extends $ZodType>(
  projectRoot: string,
  input: CreateSnapshotInput<S>,
  options: CreateSnapshotOptions,
): Promise<CreateSnapshotResult> {
  const parsed = safeParse(input.stateSchema, input.state);
  if (!parsed.success) {
    // The state comes from ctx itself, so a mismatch is a bug here, not damage on disk.
    throw new CtxError("INTERNAL", `refusing to snapshot: ${describeIssues(parsed.error.issues, input.state)}`, {
      hint: "This is a bug in ctx; please report it with the message above.",
    });
  }
  const read =
    input.preparedTranscript !== undefined
      ? await input.preparedTranscript
      : input.transcriptPath === undefined
        ? null
        : await prepareSnapshotTranscript(projectRoot, { ...input, transcriptPath: input.transcriptPath });
  const transcript = read !== null && "bytes" in read ? read : null;
  const omitted = read !== null && "omittedBytes" in read ? { path: read.path, bytes: read.omittedBytes } : null;
  const transcriptBytes = transcript?.bytes ?? new Uint8Array(0);
  const stateSummary = input.stateSummary ?? summarizeState(parsed.data);
  await ensureProjectCtxDir(projectRoot);
  const dir = projectPaths(projectRoot).snapshots;
  await ensurePrivateDir(dir);
  const policy = options.retention ?? retentionPolicyFromConfig(defaultConfig().retention);

  return withLock(
    catalogFile(dir),
    async () => {
      // The id (its time) is taken under the lock, so across processes the newest id is the last one
      // committed: retention, which keeps the newest, can then never prune a snapshot just written.
      const now = options.now ?? new Date();
      const { id, createdAt } = newTimeId(now);
      const meta: SnapshotMeta = {
        id,
        sessionId: input.sessionId,
        trigger: input.trigger,
        createdAt,
        ...(input.name === undefined ? {} : { name: input.name }),
        transcript: transcript && {
          path: transcript.path,
          bytes: transcriptBytes.length,
          lines: transcript.lines,
          ...(transcript.source === undefined ? {} : { source: transcript.source }),
        },
        stateSummary,
        ...(omitted === null ? {} : { transcriptOmitted: omitted }),
      };
      const encoded = encodeContainer({ meta, state: parsed.data, transcript: transcriptBytes }, options.codec);
      const { entries } = await reconcileCatalog(dir);
      const snapshot = entryOf(meta, headerCodec(options.codec), encoded.length, false);
      const decision = selectSnapshotsToPrune([...entries, snapshot], policy, now);
      if (decision.reasons[id] === "size") throw storageLimitError(encoded.length, entries, policy);
      const path = snapshotFile(dir, id);
      await writeFileAtomic(path, encoded);
      try {
        await verifyWritten(path, meta, transcriptBytes.length, input.stateSchema);
      } catch (error) {
        await unlink(path).catch(() => undefined);
        throw error;
      }
      // A clock that went backwards can make the new snapshot look old: it is never pruned on creation.
      const pruned = entries.filter((entry) => decision.reasons[entry.id] !== undefined);
      await removeSnapshotFiles(dir, pruned);
      const prunedIds = new Set(pruned.map((entry) => entry.id));
      await writeCatalog(dir, [snapshot, ...entries.filter((entry) => !prunedIds.has(entry.id))]);
      return {
        snapshot,
        pruned: pruned.map((entry) => prunedOf(entry, decision.reasons)),
        overLimitPinnedBytes: decision.overLimitPinnedBytes,
      };
    },
    options,
  );
}

/** The project's snapshots, newest first; [] when there are none. Repairs the catalog when it is stale. */
export async function listSnapshots(projectRoot: string, options: LockOptions = {}): Promise<SnapshotEntry[]> {
  const dir = projectPaths(projectRoot).snapshots;
  const [cataloged, scan] = await Promise.all([readCatalog(dir), scanSnapshotFolder(dir)]);
  if (cataloged !== null && catalogMatchesFolder(cataloged, scan)) return cataloged;
  if (cataloged === null && scan.files.size === 0) return [];
  return withLock(
    catalogFile(dir),
    async () => {
      const reconciled = await reconcileCatalog(dir);
      if (reconciled.changed) await writeCatalog(dir, reconciled.entries);
      return reconciled.entries;
    },
    options,
  );
}

/** A snapshot's meta, state and transcript; null when there is no such snapshot. Damage is STATE_CORRUPT. */
export async function readSnapshot<S extends $ZodType>(
  projectRoot: string,
  id: string,
  stateSchema: S,
): Promise<SnapshotContents<S> | null> {
  if (!TIME_ID_PATTERN.test(id)) return null;
  const dir = projectPaths(projectRoot).snapshots;
  const path = snapshotFile(dir, id);
  const bytes = await readIfPresent(path);
  if (bytes === null) return null;
  const decoded = decodeContainer(bytes, path);
  const file = safeParse(SnapshotFileSchema, decoded.value);
  if (!file.success) throw corruptSnapshot(path, describeIssues(file.error.issues, decoded.value));
  const state = safeParse(stateSchema, file.data.state);
  if (!state.success) throw corruptSnapshot(path, `state ${describeIssues(state.error.issues, file.data.state)}`);
  const pinned = (await readIfPresent(pinFile(dir, id))) !== null;
  return {
    snapshot: entryOf(file.data.meta, decoded.codec, bytes.length, pinned),
    state: state.data,
    transcript: file.data.transcript,
  };
}

/** Pinned snapshots are never pruned. Returns the updated entry, or null when there is no such snapshot. */
export function pinSnapshot(projectRoot: string, id: string, options: LockOptions = {}): Promise<SnapshotEntry | null> {
  return setPinned(projectRoot, id, true, options);
}

export function unpinSnapshot(
  projectRoot: string,
  id: string,
  options: LockOptions = {},
): Promise<SnapshotEntry | null> {
  return setPinned(projectRoot, id, false, options);
}

async function setPinned(
  projectRoot: string,
  id: string,
  pinned: boolean,
  options: LockOptions,
): Promise<SnapshotEntry | null> {
  if (!TIME_ID_PATTERN.test(id)) return null;
  const dir = projectPaths(projectRoot).snapshots;
  if ((await scanSnapshotFolder(dir)).files.size === 0) return null;
  return withLock(
    catalogFile(dir),
    async () => {
      const { entries } = await reconcileCatalog(dir);
      const entry = entries.find((candidate) => candidate.id === id);
      if (entry === undefined) return null;
      if (pinned) await writeFileAtomic(pinFile(dir, id), "");
      else await unlink(pinFile(dir, id)).catch(ignoreMissing);
      const updated = { ...entry, pinned };
      await writeCatalog(
        dir,
        entries.map((candidate) => (candidate.id === id ? updated : candidate)),
      );
      return updated;
    },
    options,
  );
}

export interface PruneSnapshotsResult {
  pruned: PrunedSnapshot[];
  keptBytes: number;
  pinnedBytes: number;
  overLimitPinnedBytes: number;
  /** Snapshot files that did not decode, set aside as `<id>.ctx.damaged`. */
  damaged: { id: string; problem: string }[];
  /** Temp files of killed writers, removed (only those older than tempMinAgeMs). */
  removedTempFiles: string[];
}

/** Enforces the retention policy now (`ctx snapshot prune`); also clears writers' orphaned temp files. */
export async function pruneSnapshots(
  projectRoot: string,
  policy: RetentionPolicy,
  now: Date,
  options: LockOptions & { tempMinAgeMs?: number } = {},
): Promise<PruneSnapshotsResult> {
  const dir = projectPaths(projectRoot).snapshots;
  const empty = { pruned: [], keptBytes: 0, pinnedBytes: 0, overLimitPinnedBytes: 0, damaged: [] };
  if ((await scanSnapshotFolder(dir)).exists === false) return { ...empty, removedTempFiles: [] };
  return withLock(
    catalogFile(dir),
    async () => {
      const reconciled = await reconcileCatalog(dir);
      const decision = selectSnapshotsToPrune(reconciled.entries, policy, now);
      const pruned = reconciled.entries.filter((entry) => decision.reasons[entry.id] !== undefined);
      await removeSnapshotFiles(dir, pruned);
      if (reconciled.changed || pruned.length > 0) {
        const prunedIds = new Set(decision.prune);
        await writeCatalog(
          dir,
          reconciled.entries.filter((entry) => !prunedIds.has(entry.id)),
        );
      }
      return {
        pruned: pruned.map((entry) => prunedOf(entry, decision.reasons)),
        keptBytes: decision.keptBytes,
        pinnedBytes: decision.pinnedBytes,
        overLimitPinnedBytes: decision.overLimitPinnedBytes,
        damaged: reconciled.damaged,
        removedTempFiles: await removeOrphanedTempFiles(dir, options.tempMinAgeMs),
      };
    },
    options,
  );
}

async function verifyWritten(path: string, meta: SnapshotMeta, transcriptBytes: number, stateSchema: $ZodType) {
  const fail = (problem: string, cause?: unknown): never => {
    throw new CtxError("STATE_CORRUPT", `snapshot ${meta.id} did not verify after writing: ${problem}`, {
      hint: "Nothing was replaced: earlier snapshots are intact. Check free disk space and the disk, then retry.",
      cause,
    });
  };
  const bytes = (await readIfPresent(path)) ?? fail(`${path} is missing`);
  let value: unknown;
  try {
    value = decodeContainer(bytes, path).value;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error), error);
  }
  const file = safeParse(SnapshotFileSchema, value);
  if (!file.success) return fail(describeIssues(file.error.issues, value));
  if (file.data.meta.id !== meta.id) fail(`the file holds snapshot ${file.data.meta.id}`);
  if (file.data.transcript.length !== transcriptBytes) {
    fail(`transcript has ${file.data.transcript.length} bytes, ${transcriptBytes} were written`);
  }
  const state = safeParse(stateSchema, file.data.state);
  if (!state.success) fail(`state ${describeIssues(state.error.issues, file.data.state)}`);
}

function storageLimitError(newBytes: number, entries: readonly SnapshotEntry[], policy: RetentionPolicy): CtxError {
  const pinned = entries.filter((entry) => entry.pinned);
  const pinnedBytes = pinned.reduce((total, entry) => total + entry.fileBytes, 0);
  return new CtxError(
    "STORAGE_LIMIT",
    `snapshot not saved: it needs ${formatBytes(newBytes)}, and the ${pinned.length} pinned snapshot(s) already ` +
      `take ${formatBytes(pinnedBytes)} of the ${formatBytes(policy.maxTotalBytes)} limit ` +
      `(${formatBytes(pinnedBytes + newBytes)} even after pruning every unpinned snapshot)`,
    {
      hint:
        "Unpin snapshots you no longer need (`ctx snapshot list`, then `ctx snapshot unpin <id>`), " +
        "or raise retention.maxTotalMegabytes in .ctx/config.json.",
    },
  );
}

function corruptSnapshot(path: string, problem: string): CtxError {
  return new CtxError("STATE_CORRUPT", `${path}: ${problem}`, {
    hint: "The snapshot does not hold what this ctx expects. Delete it, or restore from another snapshot.",
  });
}

export const DEFAULT_MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/**
 * The transcript's bytes, transformed block by block (whole lines each); `omittedBytes` instead when it is
 * larger than `maxBytes`. Regular files only (a FIFO is refused, never waited on).
 */
interface TranscriptSource {
  bytes: number;
  fingerprint: string;
  transformKey: string;
}

interface Reuse {
  key: string;
  previous: (path: string, key: string) => Promise<{ source: TranscriptSource; bytes: Uint8Array } | null>;
}

/** The first and the last 4 KiB of the first `length` bytes, with the length: enough to tell that a transcript
 *  only grew (Claude Code appends) from one that was rewritten. */
function fingerprintOf(raw: Uint8Array, length: number): string {
  const edge = 4096;
  return createHash("sha256")
    .update(String(length))
    .update(raw.subarray(0, Math.min(edge, length)))
    .update(raw.subarray(Math.max(0, length - edge), length))
    .digest("hex")
    .slice(0, 32);
}

/** The newest snapshot of this session whose transcript came from `path` with the same transform key. */
async function previousTransformed(
  projectRoot: string,
  sessionId: string,
  path: string,
  key: string,
): Promise<{ source: TranscriptSource; bytes: Uint8Array } | null> {
  const entries = await readCatalog(projectPaths(projectRoot).snapshots).catch(() => null);
  const entry = entries?.find(
    (e) => e.sessionId === sessionId && e.transcript?.path === path && e.transcript.source?.transformKey === key,
  );
  const source = entry?.transcript?.source;
  if (entry === undefined || source === undefined) return null;
  const contents = await readSnapshotTranscript(projectRoot, entry.id).catch(() => null);
  return contents === null ? null : { source, bytes: contents };
}

async function readSnapshotTranscript(projectRoot: string, id: string): Promise<Uint8Array | null> {
  const path = snapshotFile(projectPaths(projectRoot).snapshots, id);
  const bytes = await readIfPresent(path);
  if (bytes === null) return null;
  const file = safeParse(SnapshotFileSchema, decodeContainer(bytes, path).value);
  return file.success ? file.data.transcript : null;
}

async function readTranscript(
  path: string,
  transform: ((text: string) => string) | undefined,
  maxBytes: number,
  reuse?: Reuse,
  transformRaw?: (raw: Uint8Array) => Promise<Uint8Array>,
): Promise<PreparedTranscript> {
  const handle = await openRegularFile(path);
  if (handle === null) {
    throw new CtxError("NOT_FOUND", `transcript ${path} does not exist`, {
      hint: "Claude Code passes the transcript path to hooks; a snapshot without one keeps the state alone.",
    });
  }
  let raw: Buffer;
  try {
    const size = (await handle.stat()).size;
    if (size > maxBytes) return { path, omittedBytes: size };
    raw = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(raw, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    raw = raw.subarray(0, filled);
  } finally {
    await handle.close();
  }
  if (transform === undefined) return { path, bytes: raw, lines: countLines(raw) };
  const transformed = (part: Uint8Array) =>
    transformRaw === undefined ? Promise.resolve(transformInBlocks(part, transform)) : transformRaw(part);
  if (reuse === undefined) {
    const bytes = await transformed(raw);
    return { path, bytes, lines: countLines(bytes) };
  }
  const source = { bytes: raw.length, fingerprint: fingerprintOf(raw, raw.length), transformKey: reuse.key };
  const previous = await reuse.previous(path, reuse.key);
  const from = previous?.source.bytes ?? 0;
  const grewOnly =
    previous !== null &&
    from > 0 &&
    from <= raw.length &&
    raw[from - 1] === 0x0a && // the earlier read ended on a whole line
    fingerprintOf(raw, from) === previous.source.fingerprint;
  const bytes = grewOnly
    ? Buffer.concat([previous.bytes, await transformed(raw.subarray(from))])
    : await transformed(raw);
  return { path, bytes, lines: countLines(bytes), source };
}

async function removeSnapshotFiles(dir: string, entries: readonly SnapshotEntry[]): Promise<void> {
  for (const entry of entries) {
    await unlink(snapshotFile(dir, entry.id)).catch(ignoreMissing);
    // The compaction audit kept beside it (store/audit/audit-store.ts) goes with it.
    await unlink(join(dir, `${entry.id}.audit.json`)).catch(ignoreMissing);
  }
}

function prunedOf(entry: SnapshotEntry, reasons: Record<string, PruneReason>): PrunedSnapshot {
  return { id: entry.id, reason: reasons[entry.id] ?? "count", fileBytes: entry.fileBytes };
}
