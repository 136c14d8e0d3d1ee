// The snapshot folder's layout and its catalog. The files are the truth: `<id>.ctx` (one container holding
// meta, state and transcript) and `<id>.pin` (an empty marker: pinned). The catalog (`index.json`) is a cache
// of their metadata so listing never decodes megabytes; whenever it disagrees with the folder it is rebuilt
// from the files, under the catalog's lock, and a snapshot file that does not decode is set aside.
import { readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import { sortNewestFirst } from "../../core/snapshots/retention.ts";
import { CtxError, isCtxError } from "../../errors.ts";
import { writeFileAtomic } from "../files/atomic-write.ts";
import { CODECS, type Codec } from "../files/codecs.ts";
import { decodeContainer } from "../files/container.ts";
import { describeIssues } from "../files/schema-issues.ts";
import { TIME_ID_PATTERN } from "./time-id.ts";

export const SNAPSHOT_TRIGGERS = ["manual", "auto", "checkpoint", "save", "guard"] as const;

/** What a snapshot file says about itself (immutable once written). */
export const SnapshotMetaSchema = z.object({
  id: z.string().check(z.regex(TIME_ID_PATTERN)),
  sessionId: z.string(),
  trigger: z.enum(SNAPSHOT_TRIGGERS),
  createdAt: z.iso.datetime(),
  name: z.optional(z.string()),
  transcript: z.nullable(
    z.object({
      path: z.string(),
      bytes: z.int().check(z.nonnegative()),
      lines: z.int().check(z.nonnegative()),
      /** What the stored bytes were made from: the original's length, a fingerprint of it, and the transform's
       *  key. A later snapshot of the same, grown transcript transforms only what was added since. */
      source: z.optional(
        z.object({ bytes: z.int().check(z.nonnegative()), fingerprint: z.string(), transformKey: z.string() }),
      ),
    }),
  ),
  /** Counts of what the state holds (e.g. todos, files), for listings; the state itself stays opaque here. */
  stateSummary: z.record(z.string(), z.number()),
  /** A transcript too large to keep (over retention.maxTranscriptMegabytes): the snapshot holds the state alone. */
  transcriptOmitted: z.optional(z.object({ path: z.string(), bytes: z.int().check(z.nonnegative()) })),
});
export type SnapshotMeta = z.infer<typeof SnapshotMetaSchema>;

/** One catalog entry: the meta plus what the folder says (codec and size of the file, pin marker). */
export const SnapshotEntrySchema = z.object({
  ...SnapshotMetaSchema.shape,
  codec: z.enum(CODECS),
  fileBytes: z.int().check(z.nonnegative()),
  pinned: z.boolean(),
});
export type SnapshotEntry = z.infer<typeof SnapshotEntrySchema>;

const IndexSchema = z.object({ version: z.literal(1), snapshots: z.array(SnapshotEntrySchema) });

/** The decoded value of a snapshot file, checked before anything is trusted (the state by the caller's schema). */
export const SnapshotFileSchema = z.object({
  meta: SnapshotMetaSchema,
  state: z.unknown(),
  transcript: z.instanceof(Uint8Array),
});

export const CATALOG_FILE_NAME = "index.json";
const DAMAGED_SUFFIX = ".damaged";

export const snapshotFile = (dir: string, id: string) => join(dir, `${id}.ctx`);
export const pinFile = (dir: string, id: string) => join(dir, `${id}.pin`);
export const catalogFile = (dir: string) => join(dir, CATALOG_FILE_NAME);

export interface FolderScan {
  exists: boolean;
  /** Snapshot files by id, with their size. */
  files: Map<string, number>;
  pins: Set<string>;
}

/** What the folder holds; a missing folder holds nothing. */
export async function scanSnapshotFolder(dir: string): Promise<FolderScan> {
  const files = new Map<string, number>();
  const pins = new Set<string>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { exists: false, files, pins };
    throw error;
  }
  await Promise.all(
    names.map(async (name) => {
      const [id, extension] = splitName(name);
      if (!TIME_ID_PATTERN.test(id)) return;
      if (extension === ".pin") pins.add(id);
      if (extension !== ".ctx") return;
      const info = await stat(join(dir, name)).catch(() => null);
      if (info?.isFile()) files.set(id, info.size);
    }),
  );
  return { exists: true, files, pins };
}

/** The catalog's entries, or null when it is missing or does not parse (then it is rebuilt). */
export async function readCatalog(dir: string): Promise<SnapshotEntry[] | null> {
  let text: string;
  try {
    text = await readFile(catalogFile(dir), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const parsed = z.safeParse(IndexSchema, JSON.parse(text));
    return parsed.success ? parsed.data.snapshots : null;
  } catch {
    return null;
  }
}

export async function writeCatalog(dir: string, entries: readonly SnapshotEntry[]): Promise<void> {
  const catalog = { version: 1, snapshots: sortNewestFirst(entries) };
  await writeFileAtomic(catalogFile(dir), `${JSON.stringify(catalog, null, 2)}\n`);
}

/** True when the catalog lists exactly the folder's snapshot files, sizes and pins. */
export function catalogMatchesFolder(entries: readonly SnapshotEntry[], scan: FolderScan): boolean {
  if (entries.length !== scan.files.size) return false;
  return entries.every((e) => scan.files.get(e.id) === e.fileBytes && scan.pins.has(e.id) === e.pinned);
}

export interface Reconciled {
  entries: SnapshotEntry[];
  /** Files that did not decode, renamed to `<id>.ctx.damaged`, with the problem found. */
  damaged: { id: string; problem: string }[];
  changed: boolean;
}

/**
 * Brings the catalog in line with the folder: drops entries whose file is gone, decodes files the catalog
 * does not know (or whose size changed), takes pins from the markers, removes markers without a
 * snapshot. Call it holding the catalog's lock: it renames damaged files and removes stray markers.
 */
export async function reconcileCatalog(dir: string): Promise<Reconciled> {
  const [cataloged, scan] = await Promise.all([readCatalog(dir), scanSnapshotFolder(dir)]);
  const known = new Map((cataloged ?? []).map((entry) => [entry.id, entry]));
  const entries: SnapshotEntry[] = [];
  const damaged: { id: string; problem: string }[] = [];
  for (const [id, fileBytes] of scan.files) {
    const cached = known.get(id);
    if (cached !== undefined && cached.fileBytes === fileBytes) {
      entries.push({ ...cached, pinned: scan.pins.has(id) });
      continue;
    }
    try {
      entries.push(await readEntryFromFile(dir, id, scan.pins.has(id)));
    } catch (error) {
      // A newer ctx's file is not damage: leave it alone (and out of this ctx's list).
      if (!isCtxError(error) || error.code !== "STATE_CORRUPT") {
        if (isCtxError(error) && error.code === "STATE_UNSUPPORTED_VERSION") continue;
        throw error;
      }
      damaged.push({ id, problem: error.message });
      await rename(snapshotFile(dir, id), `${snapshotFile(dir, id)}${DAMAGED_SUFFIX}`).catch(() => undefined);
    }
  }
  for (const id of scan.pins) {
    if (!scan.files.has(id)) await unlink(pinFile(dir, id)).catch(() => undefined);
  }
  const changed = cataloged === null || !catalogMatchesFolder(cataloged, scan) || damaged.length > 0;
  return { entries: sortNewestFirst(entries), damaged, changed };
}

/** Decodes a whole snapshot file (checksum included) for its entry. Throws STATE_CORRUPT when damaged. */
export async function readEntryFromFile(dir: string, id: string, pinned: boolean): Promise<SnapshotEntry> {
  const path = snapshotFile(dir, id);
  const bytes = await readFile(path);
  const decoded = decodeContainer(bytes, path);
  const file = z.safeParse(SnapshotFileSchema, decoded.value);
  if (!file.success) throw notASnapshot(`${path}: not a snapshot: ${describeIssues(file.error.issues, decoded.value)}`);
  if (file.data.meta.id !== id) throw notASnapshot(`${path}: holds snapshot ${file.data.meta.id}, not ${id}`);
  return entryOf(file.data.meta, decoded.codec, bytes.length, pinned);
}

function notASnapshot(message: string): CtxError {
  return new CtxError("STATE_CORRUPT", message, {
    hint: "The file is damaged or not a ctx snapshot; it was set aside as <id>.ctx.damaged.",
  });
}

export function entryOf(meta: SnapshotMeta, codec: Codec, fileBytes: number, pinned: boolean): SnapshotEntry {
  return { ...meta, codec, fileBytes, pinned };
}

/** `20261122T031100123Z-3f9a1c.ctx` -> [id, ".ctx"]; the extension is everything from the first dot. */
function splitName(name: string): [string, string] {
  const dot = name.indexOf(".");
  return dot < 0 ? [name, ""] : [name.slice(0, dot), name.slice(dot)];
}

export async function readIfPresent(path: string): Promise<Uint8Array | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}
