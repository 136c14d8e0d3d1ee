// Redacting a snapshot's transcript in a worker thread, so PreCompact's other work (capturing the state from the
// transcript, writing it) runs on the main thread meanwhile: on the bench's 10 MB transcript the redaction is the
// largest single cost of the hook. The transcript goes to the worker a block at a time (transform-blocks.ts); once
// the main thread has nothing else to do (`help`), it redacts the blocks not yet handed out itself, from the end, so
// neither thread waits for the other long. Every block is redacted exactly as transformInBlocks redacts it here.
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
}

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
/** Blocks the worker holds at once. One: a second queued there could be the one this thread would have taken while the
 *  worker is still busy (on 10 MB, three blocks, the worker then did two and this thread one, waiting for it). */
const WORKER_BLOCKS_QUEUED = 1;

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
    let started: Worker;
    try {
      const data: WorkerInput = { [WORKER_FLAG]: true, allowlist: [...allowlist] };
      started = new Worker(new URL(import.meta.url), { workerData: data, stdout: true, stderr: true });
    } catch {
      return transformInBlocks(raw, transform);
    }
    worker = started;
    const ranges = blockRanges(raw);
    const parts: (Uint8Array | undefined)[] = ranges.map(() => undefined);
    // Blocks [next, last] are not handed out: the worker takes them from the front, this thread from the end.
    let next = 0;
    let last = ranges.length - 1;
    let inWorker = 0;
    return new Promise<Uint8Array>((resolve) => {
      let settled = false;
      const finish = () => {
        if (settled || parts.some((part) => part === undefined)) return;
        settled = true;
        close();
        resolve(joinBlocks(parts as Uint8Array[]));
      };
      const handOut = () => {
        while (inWorker < WORKER_BLOCKS_QUEUED && next <= last) {
          const index = next++;
          const range = ranges[index] as [number, number];
          // A copy (Buffer's slice would share, and transferring its memory would take the whole transcript away).
          const bytes = new Uint8Array(raw.subarray(range[0], range[1]));
          started.postMessage({ index, bytes } satisfies BlockMessage, [bytes.buffer]);
          inWorker += 1;
        }
      };
      const redactHere = (index: number) => {
        parts[index] ??= transformBlock(raw, ranges[index] as [number, number], transform);
      };
      // One block from the end per turn of the event loop: in between, the worker's results come in and it is
      // handed the next blocks from the front.
      const helpStep = () => {
        if (settled) return;
        if (last >= next) redactHere(last--);
        finish();
        if (!settled && last >= next) setImmediate(helpStep);
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
        inWorker -= 1;
        threadedBlocks += 1;
        handOut();
        finish();
      });
      started.on("error", fallBack);
      started.once("exit", fallBack);
      handOut();
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

// The worker's side: blocks in, their redacted bytes out (transferred, not copied).
if (!isMainThread && parentPort !== null && isWorkerInput(workerData)) {
  const port = parentPort;
  const transform = redactor(workerData.allowlist);
  port.on("message", ({ index, bytes }: BlockMessage) => {
    const out = transformBlock(bytes, [0, bytes.byteLength], transform);
    port.postMessage({ index, bytes: out } satisfies BlockMessage, [out.buffer as ArrayBuffer]);
  });
}
