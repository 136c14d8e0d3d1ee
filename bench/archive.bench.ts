// The transcript archive: one pass archiving a 10 MB real-shaped transcript (zstd-19, read back and verified),
// its size against the original, and a restore (decode, verify every checksum, write back).
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/defaults.ts";
import { silentLogger } from "../src/log.ts";
import { runArchivePass } from "../src/store/archive/archive-pass.ts";
import { restoreArchived } from "../src/store/archive/archive-restore.ts";
import { makeTranscript } from "./process-timing.ts";

const MEGABYTES = 10;

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-archive-"));
  const claudeDir = join(dir, "claude");
  const folder = join(claudeDir, "projects", "-bench-repo");
  mkdirSync(folder, { recursive: true });
  const transcript = join(folder, "bench-session.jsonl");
  renameSync(makeTranscript(dir, MEGABYTES), transcript);
  const aged = new Date(Date.now() - 25 * 86_400_000);
  utimesSync(transcript, aged, aged);
  const env = { CTX_HOME: join(dir, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir, HOME: join(dir, "home") };
  try {
    let start = performance.now();
    const report = await runArchivePass({ env, config: defaultConfig(), now: () => new Date(), logger: silentLogger });
    const archiveMs = performance.now() - start;
    const original = statSync(transcript).size;
    rmSync(transcript);
    start = performance.now();
    await restoreArchived(env, "bench-session", { now: new Date() });
    const restoreMs = performance.now() - start;
    return {
      transcriptMegabytes: MEGABYTES,
      archivePassMs: Math.round(archiveMs),
      archivedBytes: report.archived[0]?.bytes ?? 0,
      sizeRatio: Number(((report.archived[0]?.bytes ?? 0) / original).toFixed(3)),
      restoreMs: Math.round(restoreMs),
      restoredBytesEqual: statSync(transcript).size === original,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
