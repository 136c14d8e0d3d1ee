// Reads the fork log (./fork-log.ts writes it): both generations, oldest first, each line checked with the schema;
// a line that is not a record (torn, hand-edited, another program's, over MAX_LINE_BYTES) is skipped and counted.
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { type ForkLogRecord, ForkLogRecordSchema } from "../../core/library/fork-log-schema.ts";
import { CtxError } from "../../errors.ts";
import { notRegular } from "../files/safe-path.ts";
import { forkLogPath, olderPath } from "./fork-log.ts";

/** A line longer than this is not ctx's (a query is cut at 500 characters): skipped unread. */
const MAX_LINE_BYTES = 64 * 1024;

export interface ForkLogRead {
  /** Oldest first. */
  records: ForkLogRecord[];
  /** Lines that were not records (a torn write, a hand edit, another program's text). */
  skipped: number;
}

/** Both generations, oldest first; a missing file is an empty log. */
export async function readForkLog(env: NodeJS.ProcessEnv): Promise<ForkLogRead> {
  const path = forkLogPath(env);
  const records: ForkLogRecord[] = [];
  let skipped = 0;
  for (const file of [olderPath(path), path]) {
    const text = await readRegular(file);
    if (text === null) continue;
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      if (line.length > MAX_LINE_BYTES) {
        skipped++;
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        skipped++;
        continue;
      }
      const parsed = ForkLogRecordSchema.safeParse(value);
      if (parsed.success) records.push(parsed.data);
      else skipped++;
    }
  }
  records.sort((a, b) => a.at - b.at);
  return { records, skipped };
}

async function readRegular(path: string): Promise<string | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") {
      throw new CtxError("UNSAFE_PATH", `${path} is a symbolic link; ctx never reads its fork log through one`, {
        hint: "remove the link: the next search starts a new log",
      });
    }
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw notRegular(path);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}
