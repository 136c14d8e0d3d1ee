// A full garbage collection after each search the page's server answers, once the answer is on its way. A search
// leaves native memory behind that only a collection frees, and V8 does not collect for it soon enough: a server
// answering search after search as the person types grew to 306 MB of RSS after 300 searches of the 10,000-session
// bench corpus; collecting every 25 searches still left 243 MB, after each one 117 MB (bench/run.ts ui measures the
// server's RSS and the search's p95 with it). What the memory is, is not settled: caching every prepared statement
// by its SQL left the growth as it was (300 in-process searches: 116 → 193 MB either way, 113 MB with a collection
// every 10); each chunk's text inflated through a zlib handle of its own is the next suspect. Mending it where the
// memory is made would spare `ctx serve` too. A one-off `ctx search` exits first and never pays this. Searches that
// come while one collection waits share it.

export interface SearchCollector {
  /** Called after each search: a collection follows once the current work is done. */
  searched(): void;
  /** Cancels a pending collection (the server stops). */
  stop(): void;
}

/** `collect` defaults to V8's full collection, exposed for this process (node:v8's flag, node:vm's context). */
export function createSearchCollector(collect: () => void = exposedGc()): SearchCollector {
  let pending: ReturnType<typeof setImmediate> | undefined;
  return {
    searched: () => {
      pending ??= setImmediate(() => {
        pending = undefined;
        collect();
      });
    },
    stop: () => {
      if (pending !== undefined) clearImmediate(pending);
      pending = undefined;
    },
  };
}

function exposedGc(): () => void {
  process.getBuiltinModule("node:v8").setFlagsFromString("--expose-gc");
  return process.getBuiltinModule("node:vm").runInNewContext("gc") as () => void;
}
