// `ctx show` on a 50 MB transcript (issue 34's bar: it starts printing within 300 ms and holds at most 150 MB): the
// long real fixture repeated to 50 MB (./process-timing.ts makeTranscript), indexed once in this process, then a
// `ctx show` child per run, piped as a script would read it: the time to its first byte of output and to its end, and
// its peak RSS (./max-rss-preload.mjs). The same for `--json`, which keeps every exchange (bounded) until the end.
// CTX_BENCH_SHOW_MB changes the size, CTX_BENCH_SHOW_RUNS the runs.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { syncIndex } from "../src/search/sync/sync-index.ts";
import { makeTranscript, summarize } from "./process-timing.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const ctxBin = join(here, "..", "dist", "ctx.js");
const preload = join(here, "max-rss-preload.mjs");

const BUDGETS = { firstOutputMs: "<= 300", peakRssMiB: "<= 150" };

interface ShowRun {
  firstOutputMs: number;
  totalMs: number;
  maxRssMiB: number;
  bytes: number;
}

function runShow(args: string[], env: NodeJS.ProcessEnv, rssFile: string): Promise<ShowRun> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    let first: number | null = null;
    let bytes = 0;
    const child = spawn(process.execPath, ["--import", preload, ctxBin, ...args], {
      env: { ...env, CTX_BENCH_RSS_FILE: rssFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      first ??= elapsed();
      bytes += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const total = elapsed();
      if (code !== 0) return reject(new Error(`ctx ${args.join(" ")} exited ${code}: ${stderr}`));
      const usage = JSON.parse(readFileSync(rssFile, "utf8")) as { maxRssKiB: number };
      resolve({
        firstOutputMs: first ?? total,
        totalMs: total,
        maxRssMiB: Math.round((usage.maxRssKiB / 1024) * 10) / 10,
        bytes,
      });
    });
  });
}

async function measure(args: string[], env: NodeJS.ProcessEnv, rssFile: string, runs: number) {
  await runShow(args, env, rssFile); // warm-up: the compile cache, the page cache
  const results: ShowRun[] = [];
  for (let i = 0; i < runs; i++) results.push(await runShow(args, env, rssFile));
  return {
    firstOutput: summarize(results.map((run) => run.firstOutputMs)),
    total: summarize(results.map((run) => run.totalMs)),
    peakRssMiB: Math.max(...results.map((run) => run.maxRssMiB)),
    outputBytes: results[0]?.bytes ?? 0,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const megabytes = Number(process.env.CTX_BENCH_SHOW_MB ?? 50);
  const runs = Number(process.env.CTX_BENCH_SHOW_RUNS ?? 5);
  const root = mkdtempSync(join(tmpdir(), "ctx-bench-show-"));
  try {
    const project = join(root, "claude", "projects", "-home-dev-spotter");
    mkdirSync(project, { recursive: true });
    const transcript = makeTranscript(project, megabytes, "bench-show");
    const sessionId = `bench-show-${megabytes}mb`;
    const env = { ...process.env, HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: "" };
    const indexStarted = Date.now();
    await syncIndex({ claudeDir: join(root, "claude"), dbPath: join(root, "ctx-home", "index.db") });
    const indexMs = Date.now() - indexStarted;
    const rssFile = join(root, "rss.json");
    const text = await measure(["show", sessionId], env, rssFile, runs);
    const json = await measure(["show", sessionId, "--json"], env, rssFile, runs);
    return {
      transcriptMB: Math.round((statSync(transcript).size / 1024 / 1024) * 10) / 10,
      indexMs,
      budgets: BUDGETS,
      text,
      json,
      withinBudget: {
        firstOutput: text.firstOutput.p90Ms <= 300,
        peakRss: text.peakRssMiB <= 150 && json.peakRssMiB <= 150,
      },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
