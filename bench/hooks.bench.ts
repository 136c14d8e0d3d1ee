// Hook process cost: `ctx hook …` wall time next to `node -e 0` in the same run (the floor no Node
// program beats), on a 50 MB transcript, plus what each library or built-in module would add to a process's
// start-up. The budgets, as ratios to that floor: bench/budgets.ts (docs/performance.md).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PROCESS_BUDGET_RATIOS, ratioToNode } from "./budgets.ts";
import { makeTranscript, summarize, type TimingSummary, timeProcess } from "./process-timing.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const ctxBin = join(root, "dist", "ctx.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-hooks-"));
  const project = join(dir, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  const transcript = makeTranscript(dir, 50);
  // No transcript archive pass: SessionStart would start one (detached) over the machine's real ~/.claude.
  const env = {
    ...process.env,
    CTX_HOME: join(dir, "ctx-home"),
    CTX_LOG_LEVEL: "silent",
    CLAUDE_PROJECT_DIR: project,
    CTX_ARCHIVE__ENABLED: "false",
  };
  const common = { session_id: "bench-session", transcript_path: transcript, cwd: project };
  const node = process.execPath;

  const floor = timeProcess(node, ["-e", "0"], { runs: RUNS, env });
  const hook = (event: string, input: object) =>
    timeProcess(node, [ctxBin, "hook", event], { runs: RUNS, env, input: JSON.stringify({ ...common, ...input }) });
  const once = (event: string, input: object, extraEnv: NodeJS.ProcessEnv = {}) => {
    const result = spawnSync(node, [ctxBin, "hook", event], {
      env: { ...env, ...extraEnv },
      input: JSON.stringify({ ...common, ...input }),
    });
    if (result.status !== 0) throw new Error(`${event} exited ${result.status}: ${result.stderr}`);
  };
  // A session as Claude Code runs it: SessionStart first (it sets up `.ctx/`), then a tool call after another.
  once("session-start", { hook_event_name: "SessionStart", source: "startup" });
  const postToolUse = hook("post-tool-use", {
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "a\nb", stderr: "", interrupted: false, isImage: false },
  });
  // Compaction: pre-compact on growing transcripts (each run captures, redacts, snapshots and verifies),
  // then session-start `compact` re-injecting what it saved, and session-end saving the state.
  // Each run in a project of its own with no snapshot yet: the transcript's first compaction, every byte
  // redacted (the worst case). "10MB-grown": a compaction after the session's previous snapshot at 9 MiB,
  // when only the added MiB is redacted. Without the detached zstd-19 recompression: one run's background
  // child would slow the next run.
  const preCompact: Record<string, unknown> = {};
  const preCompactRuns = (path: string, before?: { path: string }) => {
    const samples: number[] = [];
    for (let i = 0; i <= Math.min(RUNS, 5); i++) {
      const own = join(dir, `pre-compact-${Date.now()}-${i}`);
      mkdirSync(join(own, ".git"), { recursive: true });
      const runEnv = { ...env, CLAUDE_PROJECT_DIR: own, CTX_RETENTION__ARCHIVE_SNAPSHOTS: "false" };
      const call = (transcriptPath: string) =>
        spawnSync(node, [ctxBin, "hook", "pre-compact"], {
          env: runEnv,
          input: JSON.stringify({
            ...common,
            cwd: own,
            transcript_path: transcriptPath,
            hook_event_name: "PreCompact",
            trigger: "auto",
          }),
        });
      const live = join(own, "session.jsonl");
      if (before !== undefined) {
        copyFileSync(before.path, live);
        call(live);
      }
      copyFileSync(path, live);
      const started = process.hrtime.bigint();
      const result = call(live);
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.status !== 0) throw new Error(`pre-compact exited ${result.status}: ${result.stderr}`);
      if (i > 0) samples.push(elapsed);
      rmSync(own, { recursive: true, force: true });
    }
    return summarize(samples);
  };
  const withRatio = (timing: TimingSummary) => ({
    ...timing,
    ratioToNode: ratioToNode(timing.medianMs, floor.medianMs),
  });
  for (const megabytes of [1, 10, 50]) {
    const path = megabytes === 50 ? transcript : makeTranscript(dir, megabytes);
    preCompact[`${megabytes}MB`] = {
      ...withRatio(preCompactRuns(path)),
      budgetRatio: megabytes === 10 ? PROCESS_BUDGET_RATIOS.preCompact10MB : undefined,
    };
  }
  // The session's transcript at its previous compaction: the 10 MB one's first 9 MiB (whole lines).
  const grown = makeTranscript(dir, 10);
  const whole = readFileSync(grown);
  const earlier = join(dir, "bench-session-10mb-first-9mib.jsonl");
  writeFileSync(earlier, whole.subarray(0, whole.lastIndexOf(10, 9 * 1024 * 1024 - 1) + 1));
  preCompact["10MB-grown"] = withRatio(preCompactRuns(grown, { path: earlier }));
  // The compaction in the session's own project, then the SessionStart `compact` that re-injects what it saved.
  once(
    "pre-compact",
    { hook_event_name: "PreCompact", trigger: "auto" },
    { CTX_RETENTION__ARCHIVE_SNAPSHOTS: "false" },
  );
  // Each run is the first SessionStart after that compaction, as in a session: the injection PreCompact left
  // pending is put back after every run (untimed), so each one audits, re-injects and settles it.
  const injectionFile = join(project, ".ctx", "injection.ctx");
  const pendingInjection = readFileSync(injectionFile);
  const sessionStart = timeProcess(node, [ctxBin, "hook", "session-start"], {
    runs: RUNS,
    env,
    input: JSON.stringify({ ...common, hook_event_name: "SessionStart", source: "compact" }),
    after: () => writeFileSync(injectionFile, pendingInjection, { mode: 0o600 }),
  });
  // SessionEnd saves the state and starts a detached, nice'd `ctx index --file` of the session (unless `ctx serve`
  // watches). Measured both ways; with the queued indexing, each run waits (untimed) for that child to finish, so
  // 30 indexing children do not pile up on the 2 cores and slow the runs (and the benches) after them.
  const sessionEndInput = JSON.stringify({ ...common, hook_event_name: "SessionEnd", reason: "other" });
  const sessionEnd = timeProcess(node, [ctxBin, "hook", "session-end"], {
    runs: RUNS,
    env,
    input: sessionEndInput,
    after: () => waitForIndexChildren(transcript),
  });
  const watcherPid = join(env.CTX_HOME, "index-watcher.pid");
  mkdirSync(env.CTX_HOME, { recursive: true, mode: 0o700 });
  writeFileSync(watcherPid, `${process.pid}\n`, { mode: 0o600 });
  const sessionEndWatched = timeProcess(node, [ctxBin, "hook", "session-end"], {
    runs: RUNS,
    env,
    input: sessionEndInput,
  });
  rmSync(watcherPid, { force: true });

  // Each against its own empty process, timed here: an empty ES module for the imports, an empty script for the
  // built-ins (`node -e`), so neither carries the other's loader.
  const moduleFloor = timeProcess(node, ["--input-type=module", "-e", "0"], { runs: 10, env, cwd: root });
  const scriptFloor = timeProcess(node, ["-e", "0"], { runs: 10, env });
  const over = (t: TimingSummary, base: TimingSummary) => Math.round((t.medianMs - base.medianMs) * 10) / 10;
  const importCost = (specifier: string) =>
    over(
      timeProcess(node, ["--input-type=module", "-e", `await import(${JSON.stringify(specifier)})`], {
        runs: 10,
        env,
        cwd: root,
      }),
      moduleFloor,
    );
  const imports: Record<string, number> = {};
  for (const specifier of [
    "commander",
    "zod/mini",
    "zod",
    "@msgpack/msgpack",
    "lz4js",
    "fzstd",
    "@modelcontextprotocol/sdk/server/mcp.js",
    "node:sqlite",
    // Built-ins as an ESM import builds their namespace (every export read, lazy getters included): what
    // build/builtin-imports.ts spares ctx's output.
    "node:fs",
    "node:child_process",
    "node:util",
  ]) {
    imports[specifier] = importCost(specifier);
  }
  // Built-ins the way ctx's build loads them (process.getBuiltinModule): what a hook pays for the ones it loads
  // only when needed (child_process to start a child, zlib for a zstd frame, fs/promises, os for a home).
  const builtins: Record<string, number> = {};
  for (const name of ["node:child_process", "node:zlib", "node:fs/promises", "node:os", "node:net", "node:crypto"]) {
    const t = timeProcess(node, ["-e", `process.getBuiltinModule(${JSON.stringify(name)})`], { runs: 10, env });
    builtins[name] = over(t, scriptFloor);
  }

  rmSync(dir, { recursive: true, force: true });
  return {
    transcriptMegabytes: 50,
    nodeFloor: floor,
    postToolUse: { ...withRatio(postToolUse), budgetRatio: PROCESS_BUDGET_RATIOS.postToolUse },
    preCompact,
    sessionStartCompact: { ...withRatio(sessionStart), budgetRatio: PROCESS_BUDGET_RATIOS.sessionStartCompact },
    sessionEnd: { ...withRatio(sessionEnd), budgetRatio: PROCESS_BUDGET_RATIOS.sessionEnd },
    sessionEndServeWatching: { ...withRatio(sessionEndWatched), budgetRatio: PROCESS_BUDGET_RATIOS.sessionEnd },
    importCostMs: imports,
    builtinCostMs: builtins,
  };
}

/** Waits (up to 60 s) until no `ctx index --quiet --file <transcript>` child of a SessionEnd is running. */
function waitForIndexChildren(transcript: string): void {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const found = spawnSync("pgrep", ["-f", `index --quiet --file ${transcript}`]);
    if (found.status !== 0) return;
    spawnSync("sleep", ["0.05"]);
  }
}
