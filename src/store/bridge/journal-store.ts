// `<CTX_HOME>/bridge/journal.log`: the bridge's write-ahead journal. One line per record, `<crc32 hex> <json>`,
// appended whole (every write's byte count checked) and fsynced before the webhook is answered, so accepted work
// survives SIGKILL, power loss or a full disk; torn bytes (a crash's or a full disk's partial write) are skipped and
// counted, and every whole record around them is kept. Only a regular file, 0600; one bridge owns it (the service
// holds its lock). Rewritten atomically without finished work at start and whenever it runs idle.
import { constants, type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import {
  type JournalRecord,
  JournalRecordSchema,
  type OpenWork,
  postKeyOf,
  recordsOf,
  replayJournal,
  SEEN_POST_KEYS,
  seenPostKeys,
} from "../../core/bridge/journal.ts";
import { CtxError, describeError, explainSystemError, isCtxError } from "../../errors.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { openRegularFile } from "../files/open-regular.ts";
import { notRegular } from "../files/safe-path.ts";

export function journalPath(bridgeDir: string): string {
  return join(bridgeDir, "journal.log");
}

export function encodeJournalLine(record: JournalRecord): string {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, "0")} ${json}\n`;
}

export interface JournalRead {
  records: JournalRecord[];
  /** Lines that failed their checksum or schema (a torn last write after a crash). */
  skipped: number;
}

export function decodeJournal(text: string): JournalRead {
  const read: JournalRead = { records: [], skipped: 0 };
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const record = decodeLine(line) ?? decodeAfterTornBytes(line);
    if (record === null) read.skipped += 1;
    else {
      // A whole record after torn bytes on its line (an append that did not start a fresh line): keep it.
      if (record.torn) read.skipped += 1;
      read.records.push(record.record);
    }
  }
  return read;
}

function decodeLine(line: string): { record: JournalRecord; torn: boolean } | null {
  const space = line.indexOf(" ");
  const json = line.slice(space + 1);
  if (space !== 8 || !/^[0-9a-f]{8}$/.test(line.slice(0, 8)) || Number.parseInt(line.slice(0, 8), 16) !== crc32(json))
    return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = JournalRecordSchema.safeParse(value);
  return parsed.success ? { record: parsed.data, torn: false } : null;
}

/** A damaged line may be torn bytes with a whole record after them: the first `<crc> {` whose rest checks out. */
function decodeAfterTornBytes(line: string): { record: JournalRecord; torn: boolean } | null {
  const start = /[0-9a-f]{8} \{/g;
  start.lastIndex = 1;
  for (let match = start.exec(line); match !== null; match = start.exec(line)) {
    const found = decodeLine(line.slice(match.index));
    if (found !== null) return { record: found.record, torn: true };
    start.lastIndex = match.index + 1;
  }
  return null;
}

/** The journal's records; none when it does not exist. Refuses anything but a regular file (a FIFO, socket or
 *  device there is refused at once, not waited on: opened non-blocking, then fstat). */
export async function readJournal(path: string): Promise<JournalRead> {
  let handle: FileHandle | null;
  try {
    handle = await openRegularFile(path, { noFollow: true });
  } catch (error) {
    throw notJournal(path, error);
  }
  if (handle === null) return { records: [], skipped: 0 };
  try {
    return decodeJournal(await handle.readFile("utf8"));
  } finally {
    await handle.close();
  }
}

function notJournal(path: string, cause: unknown): unknown {
  if (!isCtxError(cause) || cause.code !== "UNSAFE_PATH") return cause;
  return new CtxError(
    "UNSAFE_PATH",
    `the bridge journal ${path} is not a regular file (a link, folder, pipe, socket or device)`,
    {
      hint: "remove it (the bridge creates its journal there); ctx never follows links out of its folders",
      cause,
    },
  );
}

/** An open journal: appends are serialised and each is on disk (fdatasync) before its promise resolves. */
export interface Journal {
  readonly path: string;
  /** Resolves once the record is whole on disk; rejects (nothing half-written left behind when it can help it)
   *  on a short write, a failed write or a failed fsync: the caller must not treat the record as kept. */
  append(record: JournalRecord): Promise<void>;
  /**
   * Rewrites the file with only the open work (atomic) once it has grown past `minLines`. `open` is read when
   * the rewrite runs, after every append queued before it, so a caller must record work as open (and its reply
   * and posted parts) before appending the record that says so.
   */
  compact(open: () => readonly OpenWork[], minLines?: number): Promise<void>;
  close(): Promise<void>;
}

/** One write(2): the bytes it took (fewer than asked on a nearly full disk). Injectable for tests. */
export type JournalWrite = (handle: FileHandle, data: Uint8Array) => Promise<number>;

const writeOnce: JournalWrite = async (handle, data) => (await handle.write(data, 0, data.length)).bytesWritten;

export interface JournalOptions {
  write?: JournalWrite;
}

/** Opens the journal after rewriting it to what it still owes; returns the owed work. */
export async function openJournal(
  bridgeDir: string,
  options: JournalOptions = {},
): Promise<{ journal: Journal; open: OpenWork[]; skipped: number; seen: string[] }> {
  const write = options.write ?? writeOnce;
  await ensurePrivateDir(bridgeDir);
  const path = journalPath(bridgeDir);
  const read = await readJournal(path);
  const owed = replayJournal(read.records);
  // The post ids accepted lately outlive the rewrite (a `seen` record first), and every accept appended after it.
  const seen = seenPostKeys(read.records);
  const rewrite = (open: readonly OpenWork[]): JournalRecord[] => {
    const keys = seen.slice(-SEEN_POST_KEYS);
    return [...(keys.length === 0 ? [] : [{ t: "seen" as const, keys }]), ...recordsOf(open)];
  };
  const kept = rewrite(owed);
  await writeFileAtomic(path, kept.map(encodeJournalLine).join(""));
  let handle = await openForAppend(path);
  // The file's size as far as whole records go, and whether it ends with a newline (false after a failed append
  // whose torn bytes could not be cut off: the next record then starts a fresh line).
  let size = (await handle.stat()).size;
  let endsClean = true;
  let lines = kept.length;
  let keptLines = lines;
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
  const writeAll = async (data: Uint8Array): Promise<void> => {
    for (let done = 0; done < data.length; ) {
      const wrote = await write(handle, data.subarray(done));
      if (!Number.isInteger(wrote) || wrote <= 0) throw new Error(`write took ${wrote} of ${data.length - done} bytes`);
      done += wrote;
    }
  };
  const journal: Journal = {
    path,
    append: (record) =>
      serial(async () => {
        // Torn bytes left by the last failure: the file ends past `size`; this record starts after them.
        if (!endsClean) size = (await handle.stat()).size;
        const line = Buffer.from(endsClean ? encodeJournalLine(record) : `\n${encodeJournalLine(record)}`, "utf8");
        try {
          await writeAll(line);
          await handle.datasync();
        } catch (error) {
          // Cut the torn bytes off (a full disk still allows shrinking a file), so a retried message is not kept
          // twice; when that fails too, the next record starts on a fresh line and replay skips only these bytes.
          endsClean = await handle.truncate(size).then(
            () => handle.datasync().then(() => true),
            () => false,
          );
          throw new CtxError("INTERNAL", `could not append to the bridge journal ${path}: ${describeError(error)}`, {
            hint: explainSystemError(error)?.hint ?? "check the disk that holds CTX_HOME",
            cause: error,
          });
        }
        size += line.length;
        endsClean = true;
        lines += 1;
        const key = record.t === "accept" ? postKeyOf(record.message) : null;
        if (key !== null) {
          seen.push(key);
          if (seen.length > 2 * SEEN_POST_KEYS) seen.splice(0, seen.length - SEEN_POST_KEYS);
        }
      }),
    // Past `minLines`, and past twice what the last rewrite kept: with a backlog of open work (messages
    // accepted faster than Claude answers them) a rewrite keeps many lines, and rewriting them again on the very
    // next call made every message cost the whole backlog (the 10,000-message bench fell to 40 msgs/s).
    compact: (open, minLines = 1_000) =>
      serial(async () => {
        if (lines < Math.max(minLines, 2 * keptLines)) return;
        const records = rewrite(open());
        await writeFileAtomic(path, records.map(encodeJournalLine).join(""));
        await handle.close();
        handle = await openForAppend(path);
        size = (await handle.stat()).size;
        endsClean = true;
        lines = records.length;
        keptLines = records.length;
      }),
    close: () => serial(() => handle.close()),
  };
  return { journal, open: owed, skipped: read.skipped, seen: seen.slice(-SEEN_POST_KEYS) };
}

/** Non-blocking, like every open of ctx's files, and checked to be a regular file (the read above refused
 *  anything else; this guards the moment between). */
async function openForAppend(path: string): Promise<FileHandle> {
  const flags =
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
  const handle = await open(path, flags, 0o600);
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw notRegular(path);
  }
  return handle;
}
