// The person's own commands as a shell, a status line or a script runs them: the BUILT dist/ctx.js, a fresh process
// each time, next to `node -e 0` in the same rounds (the floor no Node program beats), as ratios to it. `ctx search`
// is cold (a new process) over an index of 10,000 synthetic sessions (CTX_BENCH_CLI_SESSIONS and CTX_BENCH_CLI_SIZE
// change the corpus), built once with `ctx index` and cached in os.tmpdir() beside the corpus. CTX_BENCH_CTX_BIN times another build (say, the one
// before a change) with the same rounds.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SCHEMA_VERSION } from "../src/search/session-index/schema.ts";
import { quantileMs, summarize, type TimingSummary } from "./process-timing.ts";
import { createRng } from "./synthetic-text.ts";
import { corpusVocabulary, ensureSyntheticCorpus } from "./synthetic-transcripts.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const ctxBin = process.env.CTX_BENCH_CTX_BIN ?? join(root, "dist", "ctx.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SESSIONS = Number(process.env.CTX_BENCH_CLI_SESSIONS ?? 10_000);
// About the text per message of real transcripts (the synthetic corpus carries ~10x at size factor 1).
const SIZE_FACTOR = Number(process.env.CTX_BENCH_CLI_SIZE ?? 0.1);

/** The budgets, as ratios to `node -e 0`: a fixed number of milliseconds would hold on one machine only. */
const BUDGETS = { version: 1.5, status: 2.5, search: 4 };

interface Step {
  name: string;
  args: string[];
  cwd?: string;
  input?: string;
  env?: NodeJS.ProcessEnv;
  /** Exit codes that are the command's answer, not a failure (search exits 1 when nothing matches). */
  okCodes?: number[];
}

/** The index of `sessions` synthetic sessions, built with `bin` once per corpus and schema version. */
export function ensureIndexHome({ sessions = SESSIONS, sizeFactor = SIZE_FACTOR, bin = ctxBin } = {}): {
  home: string;
  claudeDir: string;
} {
  const corpus = ensureSyntheticCorpus({ sessions, sizeFactor, seed: 1 }, (line) =>
    process.stderr.write(`bench: ${line}\n`),
  );
  const home = `${corpus.root}-ctx-home-v${SCHEMA_VERSION}`;
  if (!existsSync(join(home, "index.db"))) {
    process.stderr.write(`bench: indexing ${corpus.files} files with ${bin} (once) …\n`);
    const building = `${home}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true, mode: 0o700 });
    const indexed = spawnSync(process.execPath, [bin, "index", "--claude-dir", corpus.root], {
      env: { ...process.env, CTX_HOME: building, CTX_LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    if (indexed.status !== 0) throw new Error(`ctx index exited ${indexed.status}: ${indexed.stderr}`);
    rmSync(home, { recursive: true, force: true });
    renameSync(building, home);
  }
  return { home, claudeDir: corpus.root };
}

/** Search queries of the corpus's own words, different in each round so no answer is cached by the query. */
export function searchQueries(count: number): string[] {
  const vocabulary = corpusVocabulary(1);
  const rng = createRng(0xc11);
  return Array.from({ length: count }, () =>
    Array.from({ length: rng.int(2, 5) }, () => vocabulary.words[rng.int(50, 3_000)] ?? "retry").join(" "),
  );
}

export async function run(): Promise<Record<string, unknown>> {
  if (!existsSync(ctxBin)) throw new Error(`${ctxBin} is missing: run \`pnpm build\` first`);
  const index = ensureIndexHome();
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-cli-"));
  const project = join(dir, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  // A home of its own (its compile cache fills in the warm-up round, as a person's is full), no archive pass.
  const env = {
    ...process.env,
    CTX_HOME: join(dir, "ctx-home"),
    CTX_LOG_LEVEL: "silent",
    CLAUDE_PROJECT_DIR: project,
    CTX_ARCHIVE__ENABLED: "false",
  };
  // `ctx status` on a project ctx knows: one SessionStart has set up its `.ctx/`.
  const started = spawnSync(process.execPath, [ctxBin, "hook", "session-start"], {
    env,
    cwd: project,
    input: JSON.stringify({
      session_id: "bench-cli",
      transcript_path: join(dir, "none.jsonl"),
      cwd: project,
      hook_event_name: "SessionStart",
      source: "startup",
    }),
  });
  if (started.status !== 0) throw new Error(`session-start exited ${started.status}: ${started.stderr}`);

  const queries = searchQueries(RUNS + 1);
  const searchEnv = { ...env, CTX_HOME: index.home, CLAUDE_CONFIG_DIR: index.claudeDir };
  const steps = (round: number): Step[] => [
    { name: "node", args: ["-e", "0"] },
    { name: "version", args: [ctxBin, "--version"] },
    { name: "help", args: [ctxBin, "--help"] },
    { name: "status", args: [ctxBin, "status"], cwd: project },
    { name: "statusline", args: [ctxBin, "statusline"], cwd: project, input: "{}" },
    {
      name: "search",
      args: [ctxBin, "search", queries[round] ?? "retry", "--json", "--no-refresh"],
      cwd: project,
      env: searchEnv,
      okCodes: [1],
    },
  ];
  // Interleaved rounds (the first one a warm-up): a change of load on the machine touches every command alike.
  const samples = new Map<string, number[]>();
  for (let round = 0; round <= RUNS; round++) {
    for (const step of steps(round)) {
      const begun = process.hrtime.bigint();
      const result = spawnSync(process.execPath, step.args, {
        env: step.env ?? env,
        cwd: step.cwd ?? dir,
        input: step.input ?? "",
        stdio: ["pipe", "pipe", "pipe"],
      });
      const elapsed = Number(process.hrtime.bigint() - begun) / 1e6;
      if (result.status !== 0 && !(step.okCodes ?? []).includes(result.status ?? -1)) {
        throw new Error(`${step.name} exited ${result.status}: ${result.stderr}`);
      }
      if (round > 0) samples.set(step.name, [...(samples.get(step.name) ?? []), elapsed]);
    }
  }
  rmSync(dir, { recursive: true, force: true });

  const floor = summarize(samples.get("node") ?? []);
  const ratio = (summary: TimingSummary) => Math.round((summary.medianMs / floor.medianMs) * 100) / 100;
  const timed = (name: string, budget?: number) => {
    const summary = summarize(samples.get(name) ?? []);
    return { ...summary, ratio: ratio(summary), ...(budget === undefined ? {} : { budgetRatio: budget }) };
  };
  return {
    binary: ctxBin,
    nodeStart: floor,
    version: { command: "ctx --version", ...timed("version", BUDGETS.version) },
    help: { command: "ctx --help", ...timed("help") },
    status: { command: "ctx status", ...timed("status", BUDGETS.status) },
    statusline: { command: "ctx statusline < {}", ...timed("statusline") },
    search: {
      command: "ctx search <q> --json --no-refresh",
      sessions: SESSIONS,
      sizeFactor: SIZE_FACTOR,
      ...timed("search", BUDGETS.search),
      p95Ms: quantileMs(samples.get("search") ?? [], 0.95),
    },
    loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}
