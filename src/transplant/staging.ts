// A private folder for one export's or import's staged files (redacted copies, rewritten transcripts), under ctx's
// own home (`~/.ctx/staging/`, 0700: not /tmp, which may be memory), removed whatever happens.
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { ctxHome } from "../config/paths.ts";
import { ensurePrivateDir } from "../store/files/atomic-write.ts";

export async function withStaging<T>(env: NodeJS.ProcessEnv, work: (folder: string) => Promise<T>): Promise<T> {
  const parent = join(ctxHome(env), "staging");
  await ensurePrivateDir(parent);
  const folder = await mkdtemp(join(parent, "bundle-"));
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
