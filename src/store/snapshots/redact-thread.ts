// Redacting a snapshot's transcript in a worker thread, so PreCompact's other work (capturing the state from the
// transcript, writing it) runs on the main thread meanwhile: on the bench's 10 MB transcript the redaction is the
// largest single cost of the hook. The transcript is shared with the worker (one copy, in shared memory) with a claim
// slot per block (transform-blocks.ts): the worker claims blocks from the front by itself, so it never waits for this
// thread's event loop (which runs long synchronous stretches: capture, encoding); once this thread has nothing else
// to do (`help`), it claims blocks from the end. An atomic compare-and-swap per slot gives each block to exactly one
// thread. Every block is redacted exactly as transformInBlocks redacts it here.
// The worker runs this very module (no separate bundle entry: the file that holds this code is the worker's script,
// in src and in dist alike). A worker that cannot start, fails or exits early is never a failure: the blocks it did
// not return are redacted in this thread.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { redactText } from "../../core/redact/redact.ts";
import { blockRanges, joinBlocks, transformBlock, transformInBlocks } from "./transform-blocks.ts";

const WORKER_FLAG = "ctxRedactTranscript";

interface WorkerInput {
  [WORKER_FLAG]: true;
  allowlist: string[];
  /** The transcript's bytes, shared. */
  transcript: SharedArrayBuffer;
  ranges: [number, number][];
  /** One Int32 per block: FREE, or claimed by the worker or by the main thread. */
  claims: SharedArrayBuffer;
}

const FREE = 0;
const CLAIMED = 1;

interface BlockMessage {
  index: number;
  bytes: Uint8Array;
}

/** The transcript's text redacted with `allowlist`, block by block (transform-blocks.ts), in this thread. */
export function redactTranscriptBytes(raw: Uint8Array, allowlist: readonly string[]): Uint8Array {
  return transformInBlocks(raw, redactor(allowlist));
}

function redactor(allowlist: readonly string[]): (text: string) => string {
  return (text) => redactText(text, { allowlist }).text;
}

export interface RedactionThread {
  /** What redactTranscriptBytes(raw, allowlist) gives: partly in the worker when it is large enough. */
  redact(raw: Uint8Array): Promise<Uint8Array>;
  /** The caller is free: the blocks not yet given to the worker are redacted now, in this thread (from now on, all). */
  help(): void;
  /** Stops the worker (it is not needed, or the hook gave up); safe to call at any time, more than once. */
  close(): void;
  /** How many blocks of the last redaction the worker did (for tests and logs). */
  readonly threadedBlocks: number;
}

/**
 * Below this, redacting here costs less than starting a worker (its start-up alone is tens of milliseconds of CPU):
 * a small transcript, or the part a grown one added since the previous snapshot.
 */
export const MIN_THREADED_BYTES = 2 * 1024 * 1024;

/**
 * A redactor for one transcript: `redact` starts a worker for a transcript of MIN_THREADED_BYTES or more, so the
 * caller's other work goes on meanwhile. With `thread: false`, or where a worker cannot start, everything runs here.
 */
export function startRedactionThread(
  allowlist: readonly string[],
  options: { thread?: boolean; minThreadedBytes?: number } = {},
): RedactionThread {
  const transform = redactor(allowlist);
  let worker: Worker | null = null;
  let closed = false;
  let helping = false;
  let threadedBlocks = 0;
  let helpNow = () => {};
  const close = () => {
    closed = true;
    worker?.terminate().catch(() => undefined);
    worker = null;
  };
  const redact = async (raw: Uint8Array): Promise<Uint8Array> => {
    threadedBlocks = 0;
    const threaded = !closed && !helping && options.thread !== false;
    if (!threaded || raw.byteLength < (options.minThreadedBytes ?? MIN_THREADED_BYTES)) {
      return transformInBlocks(raw, transform);
    }
    const ranges = blockRanges(raw);
    const transcript = new SharedArrayBuffer(raw.byteLength);
    new Uint8Array(transcript).set(raw);
    const claims = new Int32Array(new SharedArrayBuffer(4 * ranges.length));
    let started: Worker;
    try {
      const data: WorkerInput = {
        [WORKER_FLAG]: true,
        allowlist: [...allowlist],
        transcript,
        ranges,
        claims: claims.buffer as SharedArrayBuffer,
      };
      started = new Worker(new URL(import.meta.url), { workerData: data, stdout: true, stderr: true });
    } catch {
      return transformInBlocks(raw, transform);
    }
    worker = started;
    const parts: (Uint8Array | undefined)[] = ranges.map(() => undefined);
    let last = ranges.length - 1;
    return new Promise<Uint8Array>((resolve) => {
      let settled = false;
      const finish = () => {
        if (settled || parts.some((part) => part === undefined)) return;
        settled = true;
        close();
        resolve(joinBlocks(parts as Uint8Array[]));
      };
      const redactHere = (index: number) => {
        parts[index] ??= transformBlock(raw, ranges[index] as [number, number], transform);
      };
      // One block from the end per turn of the event loop (in between, the worker's results come in): the next one
      // the worker has not claimed.
      const helpStep = () => {
        if (settled) return;
        while (last >= 0 && Atomics.compareExchange(claims, last, FREE, CLAIMED) !== FREE) last -= 1;
        if (last >= 0) redactHere(last--);
        finish();
        if (!settled && last >= 0) setImmediate(helpStep);
      };
      helpNow = helpStep;
      const fallBack = () => {
        if (settled) return;
        close();
        for (let index = 0; index < parts.length; index++) redactHere(index);
        finish();
      };
      started.on("message", (message: BlockMessage) => {
        if (settled || parts[message.index] !== undefined) return;
        parts[message.index] = message.bytes;
        threadedBlocks += 1;
        finish();
      });
      started.on("error", fallBack);
      started.once("exit", fallBack);
      if (helping) helpStep();
    });
  };
  return {
    redact,
    help: () => {
      helping = true;
      helpNow();
    },
    close,
    get threadedBlocks() {
      return threadedBlocks;
    },
  };
}

function isWorkerInput(value: unknown): value is WorkerInput {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[WORKER_FLAG] === true;
}

// The worker's side: it claims blocks from the front until none is left, and sends each one's redacted bytes back
// (transferred, not copied).
if (!isMainThread && parentPort !== null && isWorkerInput(workerData)) {
  const port = parentPort;
  const { allowlist, ranges } = workerData;
  const transform = redactor(allowlist);
  const bytes = new Uint8Array(workerData.transcript);
  const claims = new Int32Array(workerData.claims);
  for (let index = 0; index < ranges.length; index++) {
    if (Atomics.compareExchange(claims, index, FREE, CLAIMED) !== FREE) continue;
    const out = transformBlock(bytes, ranges[index] as [number, number], transform);
    port.postMessage({ index, bytes: out } satisfies BlockMessage, [out.buffer as ArrayBuffer]);
  }
  // Alive until the main thread ends it: an exit of its own could reach the main thread before the last results,
  // which it would then redact a second time.
  port.on("message", () => undefined);
}
