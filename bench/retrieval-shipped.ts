// The retrieval benchmark AS SHIPPED: indexes built by the built CLI (`node dist/ctx.js index --quiet`), the coding
// split searched by `ctx search --json --no-refresh --limit 10` (a fresh process per query, as a shell runs it), and
// LoCoMo by a real MCP client calling ctx_fork_detect on `ctx serve` (warm, as a Claude Code session calls it).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LocomoData } from "./locomo-data.ts";
import { percentiles } from "./process-timing.ts";
import type { Answer } from "./retrieval-coding.ts";
import type { AnswerQuery, BuildIndex } from "./retrieval-splits.ts";
import { startServe } from "./scale-serve.ts";

const ctxBin = join(fileURLToPath(new URL(".", import.meta.url)), "..", "dist", "ctx.js");

/** A home of the bench's: only these variables of its own, no config file, logs silent. */
function ctxEnv(home: string, claudeDir: string): NodeJS.ProcessEnv {
  return { ...process.env, CTX_HOME: home, CLAUDE_CONFIG_DIR: claudeDir, CTX_LOG_LEVEL: "silent" };
}

export function requireBuiltCli(): void {
  if (!existsSync(ctxBin)) throw new Error(`${ctxBin} is missing: run \`pnpm build\` first`);
}

export const buildWithCli: BuildIndex = async (claudeDir, home) => {
  const indexed = spawnSync(process.execPath, [ctxBin, "index", "--quiet"], {
    env: ctxEnv(home, claudeDir),
    cwd: home,
    encoding: "utf8",
  });
  if (indexed.status !== 0) throw new Error(`ctx index exited ${indexed.status}: ${indexed.stderr}`);
};

/** Runs a process to its end: exit code, stdout, stderr. */
function runProcess(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `ctx search --json --no-refresh --limit <limit> -- <query>`, a new process each time, from the home (no project). */
export function answerWithCli(limit: number, timings: number[]): AnswerQuery {
  return async (corpus, home, query) => {
    const started = performance.now();
    const args = [ctxBin, "search", "--json", "--no-refresh", "--limit", String(limit), "--", query];
    const { code, stdout, stderr } = await runProcess(args, ctxEnv(home, corpus.claudeDir), home);
    timings.push(performance.now() - started);
    // Exit 1 is the answer "no session matched" (its JSON says so too).
    if (code !== 0 && code !== 1) throw new Error(`ctx search exited ${code}: ${stderr}`);
    const report = JSON.parse(stdout) as { results: Array<{ sessionId: string; messageCount: number }> };
    return { ranked: report.results.map((r) => r.sessionId), messages: report.results.map((r) => r.messageCount) };
  };
}

/** Questions asked before timing starts: the server's first searches load the index and the ranking code. */
const WARM_UP = 20;

/** Every LoCoMo question through ctx_fork_detect on `ctx serve` over the index in `home`, one server, warm. */
export async function answerLocomoWithMcp(home: string, data: LocomoData, limit: number) {
  const serve = await startServe(ctxEnv(home, data.claudeDir), home);
  try {
    for (const q of data.queries.slice(0, WARM_UP)) await serve.callForkDetect(q.query, limit);
    const answers: Answer[] = [];
    const samples: number[] = [];
    for (const q of data.queries) {
      const { ms, sessionIds, messageCounts } = await serve.callForkDetect(q.query, limit);
      samples.push(ms);
      answers.push({ ranked: sessionIds, messages: messageCounts });
    }
    return { answers, timing: timingOf(samples) };
  } finally {
    await serve.close();
  }
}

/** Mean, median and p95 of per-query times (ms). */
export function timingOf(samples: readonly number[]) {
  const mean = samples.length === 0 ? 0 : samples.reduce((sum, ms) => sum + ms, 0) / samples.length;
  return { msPerQuery: Math.round(mean * 100) / 100, ...percentiles([...samples]) };
}

/** Queries whose top `depth` ids differ between two runs (the in-process check against the shipped path). */
export function compareRankings(
  ids: readonly string[],
  first: readonly (readonly string[])[],
  second: readonly (readonly string[])[],
  depth = 10,
) {
  const differing: { id: string; inProcess: string[]; shipped: string[] }[] = [];
  ids.forEach((id, i) => {
    const a = (first[i] ?? []).slice(0, depth);
    const b = (second[i] ?? []).slice(0, depth);
    if (a.length !== b.length || a.some((value, k) => value !== b[k])) differing.push({ id, inProcess: a, shipped: b });
  });
  return { queries: ids.length, identical: ids.length - differing.length, differing: differing.slice(0, 10) };
}
