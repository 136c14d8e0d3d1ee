// The hooks at scale (bench/scale.bench.ts): each hook Claude Code runs, timed with a 1,000-session index and with
// the large one, alternately (A, B, A, B, …) so the machine's drift falls on both; the ratio of their medians is the
// figure (the goal: ≤ 1.05). SessionEnd runs as if `ctx serve` watched (a pid file of a live process), so it
// queues no detached `ctx index` that would load the next runs.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize } from "./process-timing.ts";

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
export function pairedHooks(dir: string, small: HookHome, large: HookHome, transcript: string, runs = 10) {
  const sides = [hookEnv(dir, "small", small), hookEnv(dir, "large", large)];
  const out: Record<string, unknown> = {};
  for (const [event, input] of HOOKS) {
    const samples: number[][] = [[], []];
    for (let i = 0; i <= runs; i++) {
      for (const [side, { env, project }] of sides.entries()) {
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
    };
  }
  return out;
}
