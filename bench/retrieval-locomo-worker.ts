// LoCoMo's in-process modes on a worker thread, each worker on an index of its own (a mode with paid-off forks writes
// them into its home): the modes rank every session, most of the retrieval benchmark's time, so they are split over
// two threads (the machine's cores) and run before the shipped path is timed. `runLocomoModes` is the caller's side.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { loadLocomo } from "./locomo-data.ts";
import { type LocomoMode, locomoPipeline } from "./retrieval-locomo.ts";

type Results = Awaited<ReturnType<typeof locomoPipeline>>;

interface Job {
  dir: string;
  modes: Record<string, LocomoMode>;
}

async function runJob(job: Job): Promise<Results> {
  const data = loadLocomo(job.dir);
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-retrieval-modes-"));
  try {
    await syncIndex({ claudeDir: data.claudeDir, dbPath: join(home, "index.db") });
    return await locomoPipeline(home, data, job.modes);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function onWorker(job: Job): Promise<Results> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.once("message", (results: Results) => resolve(results));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the LoCoMo modes' worker exited ${code}`));
    });
  });
}

/** The modes over `threads` workers (in turn: a mode's neighbour runs beside it), results in the modes' order. */
export async function runLocomoModes(dir: string, modes: Record<string, LocomoMode>, threads = 2): Promise<Results> {
  const names = Object.keys(modes);
  const jobs = Array.from({ length: Math.min(threads, names.length) }, (_, t) => ({
    dir,
    modes: Object.fromEntries(
      names.filter((_, i) => i % threads === t).map((name) => [name, modes[name] as LocomoMode]),
    ),
  }));
  const parts = await Promise.all(jobs.map(onWorker));
  const merged = Object.assign({}, ...parts) as Results;
  return Object.fromEntries(names.map((name) => [name, merged[name]])) as Results;
}

if (!isMainThread && parentPort !== null) parentPort.postMessage(await runJob(workerData as Job));
