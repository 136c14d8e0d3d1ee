// `ctx serve` at scale (bench/scale.bench.ts): the MCP server a Claude Code session starts, driven by a real MCP
// client over stdio. Warm `ctx_fork_detect` latency, the server's memory and inotify watches once its watcher is
// ready, then a burst of new transcript files (some in new project folders) and whether its background indexing
// catches every one of them. The retrieval benchmark asks its LoCoMo questions through the same client
// (bench/retrieval-shipped.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export { inotifyWatchCount as inotifyWatches } from "../tests/helpers/inotify-watches.ts";

import { percentiles } from "./process-timing.ts";

const ctxBin = join(fileURLToPath(new URL(".", import.meta.url)), "..", "dist", "ctx.js");

/** Resident and peak memory of a process, from /proc (MiB). */
export function processMemory(pid: number): { rssMiB: number; peakRssMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: Math.round(field("VmRSS") / 1024), peakRssMiB: Math.round(field("VmHWM") / 1024) };
}

export interface ServeSession {
  pid: number;
  /** One search (limit 5 unless asked): the session ids best first, each one's message count, the round trip. */
  callForkDetect(query: string, limit?: number): Promise<{ ms: number; sessionIds: string[]; messageCounts: number[] }>;
  close(): Promise<void>;
}

export async function startServe(env: NodeJS.ProcessEnv, cwd: string): Promise<ServeSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ctxBin, "serve"],
    env: env as Record<string, string>,
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "ctx-scale-bench", version: "1.0.0" });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error("ctx serve did not start");
  return {
    pid,
    async callForkDetect(query, limit = 5) {
      const started = performance.now();
      const result = await client.callTool({ name: "ctx_fork_detect", arguments: { query, limit } });
      const ms = performance.now() - started;
      const structured = result.structuredContent as
        | { results?: Array<{ sessionId: string | null; messageCount: number }> }
        | undefined;
      if (result.isError === true) throw new Error(`ctx_fork_detect failed: ${JSON.stringify(result.content)}`);
      const found = (structured?.results ?? []).filter((r) => r.sessionId !== null);
      return {
        ms,
        sessionIds: found.map((r) => r.sessionId ?? ""),
        messageCounts: found.map((r) => r.messageCount),
      };
    },
    close: () => client.close(),
  };
}

/** Warm latency: one untimed round, then `rounds` timed ones over the queries. */
export async function warmForkDetect(serve: ServeSession, queries: readonly string[], rounds = 2) {
  for (const query of queries) await serve.callForkDetect(query);
  const samples: number[] = [];
  let empty = 0;
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const { ms, sessionIds } = await serve.callForkDetect(query);
      samples.push(ms);
      if (round === 0 && sessionIds.length === 0) empty += 1;
    }
  }
  return { queries: queries.length, ...percentiles(samples), emptyAnswers: empty };
}

/** Polls `isIndexed` until every id is there or `timeoutMs` passes; how long it took and what was missed. */
export async function waitIndexed(
  ids: readonly string[],
  indexedOf: (ids: readonly string[]) => Set<string>,
  timeoutMs: number,
): Promise<{ seconds: number; missed: number }> {
  const started = performance.now();
  let missing = ids.length;
  while (performance.now() - started < timeoutMs) {
    const found = indexedOf(ids);
    missing = ids.filter((id) => !found.has(id)).length;
    if (missing === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { seconds: Math.round((performance.now() - started) / 100) / 10, missed: missing };
}
