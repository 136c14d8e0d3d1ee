// Hook process cost: `ctx hook …` wall time next to `node -e 0` in the same run (the floor no Node
// program beats), on a 50 MB transcript, plus what each library would add to a process's start-up.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTranscript, timeProcess } from "./process-timing.ts";

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
  const postToolUse = hook("post-tool-use", {
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "a\nb", stderr: "", interrupted: false, isImage: false },
  });
  // Compaction: pre-compact on growing transcripts (each run captures, redacts, snapshots and verifies),
  // then session-start `compact` re-injecting what it saved, and session-end saving the state.
  const preCompact: Record<string, unknown> = {};
  for (const megabytes of [1, 10, 50]) {
    const path = megabytes === 50 ? transcript : makeTranscript(dir, megabytes);
    // Without the detached zstd-19 recompression: one run's background child would slow the next run.
    const run = timeProcess(node, [ctxBin, "hook", "pre-compact"], {
      runs: Math.min(RUNS, 5),
      env: { ...env, CTX_RETENTION__ARCHIVE_SNAPSHOTS: "false" },
      input: JSON.stringify({ ...common, transcript_path: path, hook_event_name: "PreCompact", trigger: "auto" }),
    });
    preCompact[`${megabytes}MB`] = { ...run, budgetMs: megabytes === 10 ? 500 : undefined };
  }
  const sessionStart = hook("session-start", { hook_event_name: "SessionStart", source: "compact" });
  const sessionEnd = hook("session-end", { hook_event_name: "SessionEnd", reason: "other" });

  const importCost = (specifier: string) => {
    const t = timeProcess(node, ["--input-type=module", "-e", `await import(${JSON.stringify(specifier)})`], {
      runs: 10,
      env,
      cwd: root,
    });
    return Math.round((t.medianMs - floor.medianMs) * 10) / 10;
  };
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
  ]) {
    imports[specifier] = importCost(specifier);
  }

  rmSync(dir, { recursive: true, force: true });
  const ratio = (ms: number) => Math.round((ms / floor.medianMs) * 100) / 100;
  return {
    transcriptMegabytes: 50,
    nodeFloor: floor,
    postToolUse: { ...postToolUse, ratioToNode: ratio(postToolUse.medianMs), budgetRatio: 1.6 },
    preCompact,
    sessionStartCompact: { ...sessionStart, ratioToNode: ratio(sessionStart.medianMs), budgetRatio: 2.5 },
    sessionEnd: { ...sessionEnd, ratioToNode: ratio(sessionEnd.medianMs), budgetMs: 200 },
    importCostMs: imports,
  };
}
