// Wall time of whole processes, for the budgets docs/performance.md states as ratios to `node -e 0`.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURE as SAMPLES } from "../tests/helpers/claude-projects.ts";

export interface TimingSummary {
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
}

/** The sample at quantile `q` (0-1) of `samples`, in ms rounded to 0.01. */
export function quantileMs(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN);
}

const round = (n: number) => Math.round(n * 100) / 100;

export function summarize(samples: number[]): TimingSummary {
  return {
    runs: samples.length,
    medianMs: quantileMs(samples, 0.5),
    p90Ms: quantileMs(samples, 0.9),
    minMs: quantileMs(samples, 0),
  };
}

/** Runs a command `runs` times (after one warm-up) and returns the wall-time summary. */
export function timeProcess(
  command: string,
  args: readonly string[],
  options: {
    runs: number;
    input?: string;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    /** Run after each process, untimed (e.g. wait for what it left running in the background). */
    after?: () => void;
  },
): TimingSummary {
  const samples: number[] = [];
  for (let i = 0; i <= options.runs; i++) {
    const started = process.hrtime.bigint();
    const result = spawnSync(command, args, {
      input: options.input ?? "",
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    if (i > 0) samples.push(elapsed);
    options.after?.();
  }
  return summarize(samples);
}

const here = fileURLToPath(new URL(".", import.meta.url));
const ctxBin = join(here, "..", "dist", "ctx.js");
const preload = join(here, "max-rss-preload.mjs");

export interface ChildResult {
  wallMs: number;
  maxRssKiB: number;
  userCpuUs: number;
  systemCpuUs: number;
  stdout: string;
}

/** A child `node <script> …args` (default: the built ctx) with its wall time, peak RSS and CPU times. */
export async function runMeasured(args: string[], env: NodeJS.ProcessEnv, script = ctxBin): Promise<ChildResult> {
  const rssFile = join(env.CTX_HOME ?? tmpdir(), `rss-${process.hrtime.bigint()}.json`);
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", preload, script, ...args], {
    env: { ...env, CTX_BENCH_RSS_FILE: rssFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4_000)));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`ctx ${args.join(" ")} exited ${code}: ${stderr}`);
  const usage = JSON.parse(readFileSync(rssFile, "utf8")) as Omit<ChildResult, "wallMs" | "stdout">;
  return { wallMs, stdout, ...usage };
}

/** p50/p95/max of wall-time samples, in ms to 0.1. */
export function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { runs: sorted.length, p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(at(1)) };
}

const FIXTURE = SAMPLES.long;

/** A transcript of `megabytes` MiB (cut at a line end) in `dir`: the long real fixture repeated. */
export function makeTranscript(dir: string, megabytes: number, prefix = "bench-session"): string {
  const path = join(dir, `${prefix}-${megabytes}mb.jsonl`);
  const chunk = readFileSync(FIXTURE);
  const target = megabytes * 1024 * 1024;
  const fd = openSync(path, "w");
  let written = 0;
  while (written < target) {
    const room = target - written;
    const part = room >= chunk.length ? chunk : chunk.subarray(0, chunk.lastIndexOf(10, room - 1) + 1);
    if (part.length === 0) break;
    writeSync(fd, part);
    written += part.length;
  }
  closeSync(fd);
  return path;
}
