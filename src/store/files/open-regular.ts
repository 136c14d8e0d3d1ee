// Opening a regular file for reading, asynchronously (see ./safe-path.ts for why only regular files, and for
// the synchronous twin). Apart from safe-path.ts so that the every-call hooks never load `node:fs/promises`.
import { type FileHandle, open } from "node:fs/promises";
import { checkPathText, notRegular, READ_FLAGS } from "./safe-path.ts";

/** Opens a regular file for reading; null when it does not exist; UNSAFE_PATH for anything else. */
export async function openRegularFile(path: string): Promise<FileHandle | null> {
  checkPathText(path);
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
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
