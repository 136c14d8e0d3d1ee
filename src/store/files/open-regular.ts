// Opening a regular file for reading, asynchronously (see ./safe-path.ts for why only regular files, and for
// the synchronous twin). Apart from safe-path.ts so that the every-call hooks never load `node:fs/promises`.
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { checkPathText, notRegular, type OpenRegularOptions, READ_FLAGS } from "./safe-path.ts";

/** Opens a regular file for reading; null when it does not exist; UNSAFE_PATH for anything else (with `noFollow`,
 *  a symbolic link too; `listed`: OpenRegularOptions). */
export async function openRegularFile(path: string, options: OpenRegularOptions = {}): Promise<FileHandle | null> {
  if (options.listed !== true) checkPathText(path);
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP" && options.noFollow) throw notRegular(path);
    throw error;
  }
  const info = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (!info.isFile()) {
    await handle.close();
    throw notRegular(path);
  }
  return handle;
}
