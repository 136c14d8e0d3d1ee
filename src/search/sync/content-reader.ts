// Reads transcript files for the sync (./sync-file.ts readFileContent) in this thread, or in worker threads
// so a large sync uses two cores: a worker parses, redacts, chunks and tokenizes while the main thread writes to
// SQLite. One worker leaves the deflating of the chunk text to the main thread (finishPacking: it was the busier
// thread); two deflate it themselves. A worker also keeps the garbage of parsing in a heap of its own with a small
// young generation (a first build of 10,000 sessions otherwise grew the main heap past its memory budget).
// A worker that cannot start or dies hands its files back to this thread: the sync never depends on it.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { type ContentJob, type FileContent, finishPacking, readFileContent } from "./sync-file.ts";

export interface ContentRequest {
  id: number;
  job: ContentJob;
}

export type ContentResponse =
  | { id: number; content: FileContent; error?: undefined }
  | { id: number; error: { message: string; name: string; code?: string }; content?: undefined };

export interface ContentReader {
  read(job: ContentJob): Promise<FileContent>;
  /** True while a worker thread does the reading. */
  readonly threaded: boolean;
  close(): Promise<void>;
}

/** The worker's young generation (MiB): parsing makes short-lived strings; V8's default let RSS grow ~100 MB. */
const WORKER_YOUNG_GENERATION_MB = 16;
/**
 * Each worker's old generation (MiB): without a cap V8 let it grow until the 10,000-session bench peaked at 309 MiB
 * (252 with 96, same speed); with two workers, 96 let a first index of 100,000 real-shaped sessions peak at 348 MiB,
 * 64 at 309 (same 197 s). A file is read as a stream (a 120 MB transcript fits), and one whose reading needs more
 * ends the worker: its files are read here.
 */
const WORKER_OLD_GENERATION_MB = 64;

/**
 * Reading workers when there are cores for them: the one worker was busy for about twice the main thread's time on
 * real-shaped transcripts (bench/run.ts scale), so a second one lets the main thread's writes keep both cores busy.
 */
const MAX_WORKERS = 2;

export interface ContentReaderOptions {
  thread: boolean;
  /** The worker's old generation cap (MiB); a test makes it too small to read anything. */
  oldGenerationMb?: number;
  /** How many workers read (default: MAX_WORKERS, fewer on a machine with fewer cores). */
  workers?: number;
}

export function createContentReader(options: ContentReaderOptions): ContentReader {
  if (!options.thread) return inlineReader();
  const count = Math.max(1, options.workers ?? Math.min(MAX_WORKERS, availableParallelism()));
  if (count === 1) return workerReader(options, false);
  // Two readers have CPU to spare and the main thread, which writes, has not: they deflate the chunk text too (the
  // same speed, and the main thread's peak RSS 240 MiB instead of 300 over 10,000 real-shaped sessions).
  return readerPool(Array.from({ length: count }, () => workerReader(options, true)));
}

/** Hands each file to the reader with the fewest files in hand; results come back as each finishes. */
function readerPool(readers: ContentReader[]): ContentReader {
  const inHand = readers.map(() => 0);
  return {
    get threaded() {
      return readers.some((reader) => reader.threaded);
    },
    read(job) {
      let least = 0;
      for (let i = 1; i < readers.length; i++) if ((inHand[i] ?? 0) < (inHand[least] ?? 0)) least = i;
      inHand[least] = (inHand[least] ?? 0) + 1;
      const release = () => {
        inHand[least] = (inHand[least] ?? 1) - 1;
      };
      const reading = (readers[least] as ContentReader).read(job);
      reading.then(release, release);
      return reading;
    },
    async close() {
      await Promise.all(readers.map((reader) => reader.close()));
    },
  };
}

function workerReader(options: ContentReaderOptions, deflate: boolean): ContentReader {
  let worker: Worker;
  try {
    worker = new Worker(workerUrl(), {
      workerData: { deflate },
      resourceLimits: {
        maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
        maxOldGenerationSizeMb: options.oldGenerationMb ?? WORKER_OLD_GENERATION_MB,
      },
    });
  } catch {
    return inlineReader();
  }
  const pending = new Map<
    number,
    { job: ContentJob; resolve: (c: FileContent) => void; reject: (e: unknown) => void }
  >();
  let nextId = 0;
  let broken = false;
  let closing = false;

  const fallBack = () => {
    if (broken) return;
    broken = true;
    // The files it held are read here instead.
    for (const [id, entry] of pending) {
      pending.delete(id);
      readFileContent(entry.job).then(entry.resolve, entry.reject);
    }
  };
  worker.on("message", (response: ContentResponse) => {
    const entry = pending.get(response.id);
    if (entry === undefined) return;
    pending.delete(response.id);
    if (response.error === undefined) entry.resolve(finishPacking(response.content, entry.job.textDictionary));
    else {
      const { message, name, code } = response.error;
      entry.reject(Object.assign(new Error(message), { name, ...(code === undefined ? {} : { code }) }));
    }
  });
  worker.on("error", fallBack);
  worker.on("exit", () => {
    if (!closing) fallBack();
  });

  return {
    get threaded() {
      return !broken;
    },
    read(job) {
      if (broken) return readFileContent(job);
      return new Promise<FileContent>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { job, resolve, reject });
        const request: ContentRequest = { id, job };
        worker.postMessage(request);
      });
    },
    async close() {
      closing = true;
      await worker.terminate();
    },
  };
}

function inlineReader(): ContentReader {
  return { read: readFileContent, threaded: false, close: async () => {} };
}

/** dist/index-worker.js next to the bundle's chunks (tsup.config.ts), or the TypeScript source when run from src. */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith(".ts") ? new URL("./content-worker.ts", here) : new URL("./index-worker.js", here);
}
