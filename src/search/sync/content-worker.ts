// The worker thread behind ./content-reader.ts: reads, chunks, tokenizes and packs transcript files
// (readFileContent) while the main thread writes the previous ones to SQLite. Built as dist/index-worker.js.
import { parentPort, workerData } from "node:worker_threads";
import type { ContentRequest, ContentResponse } from "./content-reader.ts";
import { readFileContent } from "./sync-file.ts";

const port = parentPort;
if (port === null) throw new Error("content-worker.ts runs as a worker thread");

const encoder = new TextEncoder();

/**
 * One file at a time, in the order asked: the main thread asks up to a batch ahead, and reading them all at once
 * (each awaiting its reads) held a 1 MB block and the parsed messages of every one: +60 MB of RSS on the bench.
 */
let queue: Promise<void> = Promise.resolve();

port.on("message", (request: ContentRequest) => {
  const done = queue.then(() => read(request));
  // A failure to answer still ends the worker (unhandled, as before: the main thread reads its files instead).
  queue = done.catch(() => {});
});

/**
 * Deflating the chunk text: here when several workers read (the main thread, which writes, is then the busier one),
 * else left to the main thread (ContentReader.read), which has CPU to spare beside one reader.
 */
const deflate = (workerData as { deflate?: unknown } | null)?.deflate === true;

const read = (request: ContentRequest): Promise<void> =>
  readFileContent(request.job, { pack: deflate, blocking: true }).then(
    (content) => {
      // The big values go as moved bytes, not strings: the main thread then allocates almost nothing per file
      // (its heap grew by ~100 MB receiving strings), and SQLite takes the bytes as they are (writer.ts).
      const transfer: ArrayBuffer[] = [];
      for (const row of content.chunks) {
        if (typeof row.tokens === "string") row.tokens = encoder.encode(row.tokens);
        transfer.push(row.tokens.buffer as ArrayBuffer);
        if (typeof row.packed !== "string") transfer.push(row.packed.buffer as ArrayBuffer);
      }
      const response: ContentResponse = { id: request.id, content };
      port.postMessage(response, transfer);
    },
    (error: unknown) => {
      const { message, name, code } = error as { message?: unknown; name?: unknown; code?: unknown };
      const response: ContentResponse = {
        id: request.id,
        error: {
          message: typeof message === "string" ? message : String(error),
          name: typeof name === "string" ? name : "Error",
          ...(typeof code === "string" ? { code } : {}),
        },
      };
      port.postMessage(response);
    },
  );
