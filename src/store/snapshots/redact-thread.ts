// Redacting a snapshot's transcript in a worker thread, so PreCompact's other work (capturing the state from the
// transcript, writing it) runs on the main thread meanwhile: on the bench's 10 MB transcript the redaction is the
// largest single cost of the hook. The worker runs this very module (no separate bundle entry: the file that holds
// this code is the worker's script, in src and in dist alike) and gives back exactly what transformInBlocks with the
// same redactor and allowlist gives in this thread. A worker that cannot start, fails or exits early is never
// a failure: the caller redacts in this thread instead.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { redactText } from "../../core/redact/redact.ts";
import { transformInBlocks } from "./transform-blocks.ts";

const WORKER_FLAG = "ctxRedactTranscript";

interface WorkerInput {
  [WORKER_FLAG]: true;
  allowlist: string[];
}

/** The transcript's text redacted with `allowlist`, block by block (transform-blocks.ts), in this thread. */
export function redactTranscriptBytes(raw: Uint8Array, allowlist: readonly string[]): Uint8Array {
  return transformInBlocks(raw, (text) => redactText(text, { allowlist }).text);
}

export interface RedactionThread {
  /** What redactTranscriptBytes(raw, allowlist) gives: in the worker when it is large enough, else in this thread. */
  redact(raw: Uint8Array): Promise<Uint8Array>;
  /** Stops the worker (it is not needed, or the hook gave up); safe to call at any time, more than once. */
  close(): void;
  /** Whether the worker did the last redaction (for tests and logs). */
  readonly threaded: boolean;
}

/**
 * Below this, redacting here costs less than starting a worker (its start-up alone is tens of milliseconds of CPU):
 * a small transcript, or the part a grown one added since the previous snapshot.
 */
export const MIN_THREADED_BYTES = 2 * 1024 * 1024;

/**
 * A redactor for one transcript: `redact` starts a worker for a transcript of MIN_THREADED_BYTES or more and hands it
 * the bytes, so the caller's other work goes on meanwhile. With `thread: false`, or where a worker cannot start or
 * fails, everything runs in this thread.
 */
export function startRedactionThread(
  allowlist: readonly string[],
  options: { thread?: boolean; minThreadedBytes?: number } = {},
): RedactionThread {
  let worker: Worker | null = null;
  let closed = false;
  let threaded = false;
  const inThread = (raw: Uint8Array) => {
    threaded = false;
    return redactTranscriptBytes(raw, allowlist);
  };
  const close = () => {
    closed = true;
    worker?.terminate().catch(() => undefined);
    worker = null;
  };
  const redact = async (raw: Uint8Array): Promise<Uint8Array> => {
    if (closed || options.thread === false || raw.byteLength < (options.minThreadedBytes ?? MIN_THREADED_BYTES)) {
      return inThread(raw);
    }
    let started: Worker;
    try {
      const data: WorkerInput = { [WORKER_FLAG]: true, allowlist: [...allowlist] };
      started = new Worker(new URL(import.meta.url), { workerData: data, stdout: true, stderr: true });
    } catch {
      return inThread(raw);
    }
    worker = started;
    return new Promise<Uint8Array>((resolve) => {
      let settled = false;
      const fallBack = () => {
        if (settled) return;
        settled = true;
        close();
        resolve(inThread(raw));
      };
      started.once("message", (bytes: unknown) => {
        if (settled) return;
        if (!(bytes instanceof Uint8Array)) return fallBack();
        settled = true;
        threaded = true;
        close();
        resolve(bytes);
      });
      started.on("error", fallBack);
      started.once("exit", fallBack);
      started.postMessage(raw);
    });
  };
  return {
    redact,
    close,
    get threaded() {
      return threaded;
    },
  };
}

function isWorkerInput(value: unknown): value is WorkerInput {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[WORKER_FLAG] === true;
}

// The worker's side: one transcript in, its redacted bytes out (transferred, not copied).
if (!isMainThread && parentPort !== null && isWorkerInput(workerData)) {
  const port = parentPort;
  const { allowlist } = workerData;
  port.once("message", (raw: Uint8Array) => {
    const redacted = redactTranscriptBytes(raw, allowlist);
    const owned = redacted.byteOffset === 0 && redacted.byteLength === redacted.buffer.byteLength;
    const out = owned ? redacted : redacted.slice();
    port.postMessage(out, [out.buffer as ArrayBuffer]);
  });
}
