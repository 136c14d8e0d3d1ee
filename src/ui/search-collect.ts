// A full garbage collection after each search the page's server answers, once the answer is on its way. Each search
// prepares SQLite statements (search/session-index/) whose native memory is freed only when V8 collects their small
// JavaScript handles, and V8, which does not weigh that memory, lets them pile up: a server answering search after
// search as the person types grew to 306 MB of RSS after 300 searches of the 10,000-session bench corpus; collecting
// every 25 searches still left 243 MB, after each one 117 MB (bench/run.ts ui measures the server's RSS and the
// search's p95 with it). A one-off `ctx search` exits first and never pays this. Searches that come while one
// collection waits share it.

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
