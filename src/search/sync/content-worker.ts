// The worker thread behind ./content-reader.ts: reads, chunks, tokenizes and packs transcript files
// (readFileContent) while the main thread writes the previous ones to SQLite. Built as dist/index-worker.js.
import { parentPort } from "node:worker_threads";
import type { ContentRequest, ContentResponse } from "./content-reader.ts";
import { readFileContent } from "./sync-file.ts";

const port = parentPort;
if (port === null) throw new Error("content-worker.ts runs as a worker thread");

port.on("message", (request: ContentRequest) => {
  readFileContent(request.job).then(
    (content) => {
      const transfer = content.chunks.flatMap((row) => (typeof row.packed === "string" ? [] : [row.packed.buffer]));
      const response: ContentResponse = { id: request.id, content };
      port.postMessage(response, transfer as ArrayBuffer[]);
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
});
