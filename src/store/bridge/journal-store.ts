// `<CTX_HOME>/bridge/journal.log`: the bridge's write-ahead journal. One line per record, `<crc32 hex> <json>`,
// appended and fsynced before the webhook is answered, so accepted work survives SIGKILL or power loss; a torn or
// damaged line (the crash's last write) is skipped and counted. Opened O_NOFOLLOW, 0600; one bridge owns it (the
// service holds its lock). Rewritten atomically without finished work at start and whenever it runs idle.
import { constants, type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import {
  type JournalRecord,
  JournalRecordSchema,
  type OpenWork,
  recordsOf,
  replayJournal,
} from "../../core/bridge/journal.ts";
import { CtxError } from "../../errors.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";

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
    const space = line.indexOf(" ");
    const json = line.slice(space + 1);
    if (space !== 8 || Number.parseInt(line.slice(0, 8), 16) !== crc32(json)) {
      read.skipped += 1;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      read.skipped += 1;
      continue;
    }
    const parsed = JournalRecordSchema.safeParse(value);
    if (parsed.success) read.records.push(parsed.data);
    else read.skipped += 1;
  }
  return read;
}

/** The journal's records; none when it does not exist. Refuses anything but a regular file. */
export async function readJournal(path: string): Promise<JournalRead> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { records: [], skipped: 0 };
    if (code === "ELOOP") throw notRegular(path);
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw notRegular(path);
    return decodeJournal(await handle.readFile("utf8"));
  } finally {
    await handle.close();
  }
}

function notRegular(path: string): CtxError {
  return new CtxError("STATE_CORRUPT", `${path} is not a regular file`, {
    hint: "remove it; ctx never follows links out of its folders",
  });
}

/** An open journal: appends are serialised and each is on disk (fdatasync) before its promise resolves. */
export interface Journal {
  readonly path: string;
  append(record: JournalRecord): Promise<void>;
  /**
   * Rewrites the file with only the open work (atomic) once it has grown past `minLines`. `open` is read when
   * the rewrite runs, after every append queued before it, so a caller must record work as open (and its reply
   * and posted parts) before appending the record that says so.
   */
  compact(open: () => readonly OpenWork[], minLines?: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens the journal after rewriting it to what it still owes; returns the owed work. */
export async function openJournal(bridgeDir: string): Promise<{ journal: Journal; open: OpenWork[]; skipped: number }> {
  await ensurePrivateDir(bridgeDir);
  const path = journalPath(bridgeDir);
  const read = await readJournal(path);
  const owed = replayJournal(read.records);
  await writeFileAtomic(path, recordsOf(owed).map(encodeJournalLine).join(""));
  let handle = await openForAppend(path);
  let lines = recordsOf(owed).length;
  let keptLines = lines;
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
  const journal: Journal = {
    path,
    append: (record) =>
      serial(async () => {
        await handle.write(encodeJournalLine(record));
        await handle.datasync();
        lines += 1;
      }),
    // Past `minLines`, and past twice what the last rewrite kept: with a backlog of open work (messages
    // accepted faster than Claude answers them) a rewrite keeps many lines, and rewriting them again on the very
    // next call made every message cost the whole backlog (the 10,000-message bench fell to 40 msgs/s).
    compact: (open, minLines = 1_000) =>
      serial(async () => {
        if (lines < Math.max(minLines, 2 * keptLines)) return;
        const records = recordsOf(open());
        await writeFileAtomic(path, records.map(encodeJournalLine).join(""));
        await handle.close();
        handle = await openForAppend(path);
        lines = records.length;
        keptLines = records.length;
      }),
    close: () => serial(() => handle.close()),
  };
  return { journal, open: owed, skipped: read.skipped };
}

async function openForAppend(path: string): Promise<FileHandle> {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
  return open(path, flags, 0o600);
}
