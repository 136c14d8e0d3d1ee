// The context guard's cost on the hot path: `ctx hook post-tool-use` (checkpoint tick + guard) at 1, 10 and
// 100 MB transcripts next to `node -e 0`. The guard reads a bounded tail, so the figures must stay flat.
// BENCH_BASELINE_BIN=<another build's dist/ctx.js> times that build too, interleaved run by run with this
// one and the floor, so a busy machine slows all three alike (the guard's own cost is the difference).

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTranscript, summarize, type TimingSummary } from "./process-timing.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const ctxBin = join(root, "dist", "ctx.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

/**
 * The guard's own work per tool call (tail read, state read and write, the step), in-process and warm, in
 * microseconds: free of process start-up and far less sensitive to a busy machine than whole-process times.
 */
async function guardInProcess(project: string, transcript: string, session: string): Promise<TimingSummary> {
  const { runContextGuard } = await import("../src/store/guard/context-guard.ts");
  const { defaultConfig } = await import("../src/config/defaults.ts");
  const { silentLogger } = await import("../src/log.ts");
  const deps = {
    env: {},
    now: () => new Date(),
    logger: silentLogger,
    projectRoot: project,
    config: defaultConfig(),
  };
  const input = { session_id: session, transcript_path: transcript };
  const samples: number[] = [];
  for (let i = 0; i < 220; i++) {
    const started = process.hrtime.bigint();
    await runContextGuard(input, deps);
    const micros = Number(process.hrtime.bigint() - started) / 1e3;
    if (i >= 20) samples.push(micros);
  }
  return summarize(samples);
}

/** A preload that prints the process's own CPU time (user + system) to stderr at exit. */
const CPU_REPORTER = `import { writeSync } from "node:fs";
process.on("exit", () => { const u = process.cpuUsage(); writeSync(2, "\\nCTX_BENCH_CPU_US " + (u.user + u.system) + "\\n"); });`;

/** Wall time and the process's CPU time (which a busy machine distorts far less), in ms. */
function timeOnce(args: string[], env: NodeJS.ProcessEnv, input: string): { wall: number; cpu: number } {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { input, env, stdio: ["pipe", "pipe", "pipe"] });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  const cpu = /CTX_BENCH_CPU_US (\d+)/.exec(String(result.stderr));
  return { wall, cpu: cpu ? Number(cpu[1]) / 1000 : Number.NaN };
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-guard-"));
  const project = join(dir, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, ".ctx"), { recursive: true, mode: 0o700 });
  const reporter = join(dir, "cpu-reporter.mjs");
  writeFileSync(reporter, CPU_REPORTER);
  const env = {
    ...process.env,
    CTX_HOME: join(dir, "ctx-home"),
    CTX_LOG_LEVEL: "silent",
    CLAUDE_PROJECT_DIR: project,
    NODE_OPTIONS: `--import=${reporter}`,
  };
  const baseline = process.env.BENCH_BASELINE_BIN;
  const results: Record<string, unknown> = {};
  for (const megabytes of [1, 10, 100]) {
    const transcript = makeTranscript(dir, megabytes, "guard-session");
    const input = (session: string) =>
      JSON.stringify({
        session_id: session,
        transcript_path: transcript,
        cwd: project,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
        tool_response: { stdout: "a\nb", stderr: "", interrupted: false, isImage: false },
      });
    const samples = { node: [] as number[], postToolUse: [] as number[], baseline: [] as number[] };
    const cpu = { node: [] as number[], postToolUse: [] as number[], baseline: [] as number[] };
    for (let i = 0; i <= RUNS; i++) {
      const runs = {
        node: timeOnce(["-e", "0"], env, ""),
        postToolUse: timeOnce([ctxBin, "hook", "post-tool-use"], env, input(`bench-guard-${megabytes}`)),
        baseline: baseline
          ? timeOnce([baseline, "hook", "post-tool-use"], env, input(`bench-base-${megabytes}`))
          : null,
      };
      if (i === 0) continue; // warm-up
      for (const key of ["node", "postToolUse", "baseline"] as const) {
        const run = runs[key];
        if (run === null) continue;
        samples[key].push(run.wall);
        cpu[key].push(run.cpu);
      }
    }
    const floor = summarize(samples.node);
    const ratio = (t: TimingSummary) => Math.round((t.medianMs / floor.medianMs) * 100) / 100;
    const hook = summarize(samples.postToolUse);
    const cpuOf = (key: keyof typeof cpu) => summarize(cpu[key]).medianMs;
    const row: Record<string, unknown> = {
      nodeFloor: floor,
      postToolUse: { ...hook, ratioToNode: ratio(hook) },
      cpuMedianMs: { node: cpuOf("node"), postToolUse: cpuOf("postToolUse") },
    };
    if (baseline) {
      const base = summarize(samples.baseline);
      row.baseline = { ...base, ratioToNode: ratio(base) };
      (row.cpuMedianMs as Record<string, number>).baseline = cpuOf("baseline");
    }
    row.guardInProcessMicros = await guardInProcess(project, transcript, `bench-inproc-${megabytes}`);
    results[`${megabytes}MB`] = row;
    rmSync(transcript, { force: true });
  }
  rmSync(dir, { recursive: true, force: true });
  return { ...results, budgetRatio: 1.6 };
}
