// What a person with a large index waits for, through the BUILT dist/ctx.js as they run it (issue 36's goals at
// 100,000 sessions: `ctx stats` and the picker's first screen ≤ 500 ms, cold `ctx search --json` p95 ≤ 500 ms with no
// empty answer, warm ctx_fork_detect p95 ≤ 100 ms). Over an index of CTX_BENCH_STATS_SESSIONS synthetic sessions
// (default 10,000; size factor CTX_BENCH_STATS_SIZE, default 0.1), built once with `ctx index` and cached beside the
// corpus as cli.bench.ts caches its own; CTX_BENCH_STATS_HOME names a ready ctx home (its index.db) instead, with
// CTX_BENCH_STATS_CLAUDE_DIR its transcripts (what `ctx serve` watches), and CTX_BENCH_CTX_BIN another build (the one
// before a change). Each search is a new query of the corpus's own words.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ensureIndexHome } from "./cli.bench.ts";
import { quantileMs } from "./process-timing.ts";
import { createRng } from "./synthetic-text.ts";
import { corpusVocabulary } from "./synthetic-transcripts.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const ctxBin = process.env.CTX_BENCH_CTX_BIN ?? join(root, "dist", "ctx.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SESSIONS = Number(process.env.CTX_BENCH_STATS_SESSIONS ?? 10_000);
const SIZE_FACTOR = Number(process.env.CTX_BENCH_STATS_SIZE ?? 0.1);

function indexHome(): { home: string; claudeDir: string | null } {
  const given = process.env.CTX_BENCH_STATS_HOME;
  if (given !== undefined) return { home: given, claudeDir: process.env.CTX_BENCH_STATS_CLAUDE_DIR ?? null };
  return ensureIndexHome({ sessions: SESSIONS, sizeFactor: SIZE_FACTOR, bin: ctxBin });
}

function queries(count: number, seed: number): string[] {
  const vocabulary = corpusVocabulary(1);
  const rng = createRng(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: rng.int(2, 5) }, () => vocabulary.words[rng.int(50, 3_000)] ?? "retry").join(" "),
  );
}

const summary = (samples: number[]) => ({
  runs: samples.length,
  p50Ms: quantileMs(samples, 0.5),
  p95Ms: quantileMs(samples, 0.95),
  maxMs: quantileMs(samples, 1),
});

function timed(args: string[], env: NodeJS.ProcessEnv): { ms: number; stdout: string; status: number | null } {
  const started = performance.now();
  const run = spawnSync(process.execPath, [ctxBin, ...args], { env, encoding: "utf8", maxBuffer: 64 << 20 });
  const ms = performance.now() - started;
  if (run.status !== 0 && run.status !== 1) throw new Error(`ctx ${args[0]} exited ${run.status}: ${run.stderr}`);
  return { ms, stdout: run.stdout, status: run.status };
}

/**
 * The picker's first screen: `ctx search` on a terminal (script(1) gives it one) until @clack/prompts draws the list
 * with the first session's pane; then Esc.
 */
function timePicker(query: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(ctxBin)} search ${query}`;
    const child = spawn("script", ["-qfec", command, "/dev/null"], { env: { ...env, TERM: "xterm-256color" } });
    let seen = "";
    let shown: number | null = null;
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.on("data", (data: Buffer) => {
      seen += data.toString("utf8");
      // The select prompt's active option marker: the list is on screen.
      if (shown === null && /[●◆]/u.test(seen)) {
        shown = performance.now() - started;
        child.stdin.write("\u001b");
        setTimeout(() => child.kill("SIGTERM"), 200);
      }
    });
    child.on("close", () => {
      clearTimeout(timer);
      if (shown === null) reject(new Error(`the picker never showed: ${seen.slice(-400)}`));
      else resolve(shown);
    });
  });
}

async function timeMcp(home: string, claudeDir: string | null, asked: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ctxBin, "serve"],
    env: {
      ...(process.env as Record<string, string>),
      CTX_HOME: home,
      CTX_LOG_LEVEL: "silent",
      CTX_ARCHIVE__ENABLED: "false",
      ...(claudeDir === null ? {} : { CLAUDE_CONFIG_DIR: claudeDir }),
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  try {
    const call = (query: string) => client.callTool({ name: "ctx_fork_detect", arguments: { query } });
    for (const query of asked.slice(0, 3)) await call(query);
    const samples: number[] = [];
    let empty = 0;
    for (const query of asked.slice(3)) {
      const started = performance.now();
      const result = await call(query);
      samples.push(performance.now() - started);
      const candidates = (result.structuredContent as { results?: unknown[] } | undefined)?.results ?? [];
      if (candidates.length === 0) empty += 1;
    }
    return { ...summary(samples), emptyAnswers: empty };
  } finally {
    await client.close();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  if (!existsSync(ctxBin)) throw new Error(`${ctxBin} is missing: run \`pnpm build\` first`);
  const { home, claudeDir } = indexHome();
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-stats-"));
  const env = { ...process.env, CTX_HOME: home, CTX_LOG_LEVEL: "silent", CTX_ARCHIVE__ENABLED: "false", HOME: dir };
  try {
    const first = JSON.parse(timed(["stats", "--json"], env).stdout) as { sessions: number; chunks: number };
    const stats: number[] = [];
    for (let i = 0; i < RUNS; i++) stats.push(timed(["stats", "--json"], env).ms);
    // A build before --check ran the check on every `ctx stats` (its `stats` figure is this one).
    const checked: number[] = [];
    for (let i = 0; i < 2; i++) {
      try {
        checked.push(timed(["stats", "--check", "--json"], env).ms);
      } catch {
        break;
      }
    }
    // --no-refresh: the index as it is (catching up on new transcripts first is the sync's cost, measured there).
    const search: number[] = [];
    let empty = 0;
    for (const query of queries(RUNS, 0x5ea7)) {
      const run = timed(["search", "--json", "--no-refresh", ...query.split(" ")], env);
      search.push(run.ms);
      if ((JSON.parse(run.stdout) as { results: unknown[] }).results.length === 0) empty += 1;
    }
    const picker: number[] = [];
    for (const query of queries(Math.min(RUNS, 10), 0x91c)) picker.push(await timePicker(`--no-refresh ${query}`, env));
    const mcp = await timeMcp(home, claudeDir, queries(RUNS + 3, 0xf0c));
    return {
      bin: ctxBin,
      sessions: first.sessions,
      chunks: first.chunks,
      indexBytes: statSync(join(home, "index.db")).size,
      stats: summary(stats),
      statsCheck: summary(checked),
      searchCold: { ...summary(search), emptyAnswers: empty },
      pickerFirstScreen: summary(picker),
      forkDetectWarm: mcp,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
