// The hooks at scale (bench/scale.bench.ts): each hook Claude Code runs, timed with a 1,000-session index and with
// the large one, alternately so the machine's drift falls on both, each pair in turn small first and large first (A B,
// B A, …) so a run's place in its pair does too; the ratio of their medians is the figure (the goal: ≤ 1.05),
// and the median of the pairs' own ratios is beside it. SessionEnd runs as if `ctx serve` watched (a pid file of a live process), so it
// queues no detached `ctx index` that would load the next runs.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { quantileMs, summarize } from "./process-timing.ts";

const ctxBin = join(fileURLToPath(new URL(".", import.meta.url)), "..", "dist", "ctx.js");

export interface HookHome {
  /** CTX_HOME holding the index. */
  home: string;
  claudeDir: string;
}

/** A project folder and environment for `home`, the watcher's pid file pointing at this (live) process. */
function hookEnv(dir: string, name: string, home: HookHome): { env: NodeJS.ProcessEnv; project: string } {
  const project = join(dir, `project-${name}`);
  mkdirSync(join(project, ".git"), { recursive: true });
  writeFileSync(join(home.home, "index-watcher.pid"), `${process.pid}\n`);
  return {
    project,
    env: {
      ...process.env,
      CTX_HOME: home.home,
      CLAUDE_CONFIG_DIR: home.claudeDir,
      CLAUDE_PROJECT_DIR: project,
      CTX_LOG_LEVEL: "silent",
      CTX_ARCHIVE__ENABLED: "false",
    },
  };
}

const HOOKS: Array<[string, object]> = [
  ["session-start", { hook_event_name: "SessionStart", source: "startup" }],
  [
    "post-tool-use",
    {
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_response: { stdout: "a\nb", stderr: "", interrupted: false, isImage: false },
    },
  ],
  ["pre-compact", { hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" }],
  ["session-end", { hook_event_name: "SessionEnd", reason: "exit" }],
];

/** Paired hook timings: `small` (the 1,000-session index) against `large`; `transcript` is a real-shaped session. */
export function pairedHooks(dir: string, small: HookHome, large: HookHome, transcript: string, runs = 20) {
  const sides = [hookEnv(dir, "small", small), hookEnv(dir, "large", large)];
  const out: Record<string, unknown> = {};
  for (const [event, input] of HOOKS) {
    const samples: number[][] = [[], []];
    for (let i = 0; i <= runs; i++) {
      for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const { env, project } = sides[side] as (typeof sides)[number];
        // Each run's own copy: PreCompact snapshots what it is given, and a file it saw would be an increment.
        const path = join(project, `session-${i}.jsonl`);
        copyFileSync(transcript, path);
        const stdin = JSON.stringify({
          session_id: `scale-${side}-${i}`,
          transcript_path: path,
          cwd: project,
          ...input,
        });
        const started = process.hrtime.bigint();
        const result = spawnSync(process.execPath, [ctxBin, "hook", event], { env, input: stdin, cwd: project });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (result.status !== 0) throw new Error(`ctx hook ${event} exited ${result.status}: ${result.stderr}`);
        if (i > 0) samples[side]?.push(ms);
      }
    }
    const [a, b] = samples.map((s) => summarize(s));
    out[event] = {
      at1000: a?.medianMs,
      atScale: b?.medianMs,
      ratio: a && b ? Math.round((b.medianMs / a.medianMs) * 100) / 100 : null,
      pairRatioMedian: pairRatioMedian(samples[0] ?? [], samples[1] ?? []),
    };
  }
  return out;
}

/** The median of each pair's large / small time (the pairs in the order they ran). */
function pairRatioMedian(small: readonly number[], large: readonly number[]): number | null {
  const ratios = large.map((ms, i) => ms / (small[i] ?? Number.NaN)).filter(Number.isFinite);
  if (ratios.length === 0) return null;
  return quantileMs(ratios, 0.5);
}
