// Writes the paid-off sources search reads (./fork-paid-off.ts): whole, atomic, 0600 in the library's 0700 folder.
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { paidOffPath } from "./fork-paid-off.ts";
import { libraryDir } from "./library-dir.ts";

/** Sources kept: the most paid-off forks first; a search weighs only its pool of twenty. */
const MAX_SOURCES = 5_000;

export async function writePaidOffSources(env: NodeJS.ProcessEnv, counts: ReadonlyMap<string, number>): Promise<void> {
  const sources = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, MAX_SOURCES));
  await ensurePrivateDir(libraryDir(env));
  await writeFileAtomic(paidOffPath(env), `${JSON.stringify({ v: 1, sources })}\n`);
}
