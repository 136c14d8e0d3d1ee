// One private temp folder per test run: every test's mkdtemp (and every process a test starts, which
// inherits TMPDIR) lands inside it, and it is removed when the run ends, so runs leave nothing in /tmp. And the local
// embedder's packages, installed once per machine into a cache (tests/helpers/embedder-packages.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureEmbedderPackages } from "./helpers/embedder-packages.ts";

export default async function setup(): Promise<() => void> {
  // Before TMPDIR moves: npm's own temp files belong in the machine's temp folder. Unavailable outside CI, the tests
  // that need the packages skip saying why (missingEmbedderPackages); under CI this throws and the run fails.
  const embedder = await ensureEmbedderPackages();
  if (embedder !== null) process.stderr.write(`test setup: ${embedder}\n`);
  const runDir = mkdtempSync(join(tmpdir(), "ctx-test-run-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = runDir;
  // SessionStart starts a detached transcript archive pass (at most hourly) over the user's Claude Code folder;
  // test processes that inherit this environment must not archive the machine's real transcripts.
  const archive = process.env.CTX_ARCHIVE__ENABLED;
  process.env.CTX_ARCHIVE__ENABLED = "false";
  return () => {
    if (archive === undefined) delete process.env.CTX_ARCHIVE__ENABLED;
    else process.env.CTX_ARCHIVE__ENABLED = archive;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (process.env.CTX_KEEP_TEST_TMP !== "1")
      rmSync(runDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  };
}
