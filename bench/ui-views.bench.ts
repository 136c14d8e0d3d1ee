// The ui's chains, context and index pages (src/ui/views/): each page's data loaded and rendered in this process, as
// the server does per request, over a copy of the 10,000-session index bench/cli.bench.ts builds (the synthetic
// corpus has no forks: the chains page there measures the lineage scan), the context page of a project whose sessions
// are each a real 3 MB compacted transcript (the usage curve reads them as `ctx report` does); and the chains view alone on a synthetic
// graph of as many families as it draws (40) of 25 forks each, the most it draws. Issue 35's bar: first load <= 300 ms.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "tsup";
import { defaultConfig } from "../src/config/defaults.ts";
import { recordSessionStart } from "../src/core/sessions/seen.ts";
import { updateSessionsSeen } from "../src/store/sessions/seen.ts";
import type { ChainSession } from "../src/ui/views/chains-data.ts";
import { ensureIndexHome } from "./cli.bench.ts";
import { summarize } from "./process-timing.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
/** As many families as the chains page draws (src/ui/views/chains-data.ts MAX_FAMILIES). */
const FAMILIES = 40;

type Views = typeof import("./ui-views-entry.ts");

/** Node strips types but does not compile JSX: the views are built with the project's own tsup (its tsconfig's jsx). */
async function buildViews(): Promise<Views> {
  const outDir = join(here, "results", "ui-views-build");
  await build({
    entry: { views: join(here, "ui-views-entry.ts") },
    outDir,
    format: ["esm"],
    platform: "node",
    target: "node22",
    silent: true,
    config: false,
    removeNodeProtocol: false,
  });
  return (await import(pathToFileURL(join(outDir, "views.js")).href)) as Views;
}

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
/** Sessions of the context page's project: each the real 3 MB compacted transcript (tests/fixtures/claude). */
const CONTEXT_SESSIONS = Number(process.env.CTX_BENCH_UI_CONTEXT_SESSIONS ?? 10);
const COMPACTED = join(
  here,
  "..",
  "tests/fixtures/claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
);
const BUDGETS = { pageMs: "<= 300 (p95, first load of the whole page: the server's share is measured by its bench)" };

async function timed(runs: number, work: () => Promise<unknown>) {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    bytes = String(await work()).length;
    samples.push(performance.now() - started);
  }
  return { ...summarize(samples), htmlBytes: bytes };
}

function syntheticChains(): ChainSession[] {
  const sessions: ChainSession[] = [];
  for (let family = 0; family < FAMILIES; family++) {
    for (let i = 0; i < 25; i++) {
      const id = `f${family}-s${i}`;
      const parentId = i === 0 ? null : `f${family}-s${Math.floor((i - 1) / 3)}`;
      const verdicts = ["paid-off", "continued", "abandoned", "unknown"] as const;
      sessions.push({
        id,
        parentId,
        createdAt: family * 1000 + i,
        updatedAt: family * 1000 + i,
        title: `session ${id} about the <importer> & its retries`,
        project: "-home-dev-app",
        messageCount: 40 + i,
        verdict: parentId === null ? null : (verdicts[i % 4] ?? null),
        compactions: i % 5 === 0 ? 1 : 0,
      });
    }
  }
  return sessions;
}

export async function run(): Promise<Record<string, unknown>> {
  const { home } = ensureIndexHome();
  const { ChainsView, ContextView, IndexView, loadChains, loadIndexPage, loadProjectContext } = await buildViews();
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-ui-views-"));
  try {
    const env = { ...process.env, CTX_HOME: join(dir, "ctx-home"), HOME: dir, CTX_LOG_LEVEL: "silent" };
    mkdirSync(env.CTX_HOME, { recursive: true, mode: 0o700 });
    copyFileSync(join(home, "index.db"), join(env.CTX_HOME, "index.db"));
    const config = defaultConfig();
    const projectRoot = join(dir, "repo");
    const indexPage = await timed(RUNS, async () =>
      IndexView({ data: await loadIndexPage(env, projectRoot, config) }).toString(),
    );
    const index = await loadIndexPage(env, projectRoot, config);
    const biggest = index.stats.ok ? (index.stats.value.byProject[0]?.project ?? "this") : "this";
    const chainsPage = await timed(RUNS, async () =>
      ChainsView({ data: await loadChains(env, projectRoot, biggest) }).toString(),
    );
    mkdirSync(join(projectRoot, ".git"), { recursive: true });
    for (let i = 0; i < CONTEXT_SESSIONS; i++) {
      const sessionId = `bench-${String(i).padStart(4, "0")}`;
      await updateSessionsSeen(projectRoot, (file) =>
        recordSessionStart(file, {
          sessionId,
          transcriptPath: COMPACTED,
          cwd: projectRoot,
          at: new Date(Date.now() - i * 60_000),
          source: "startup",
          model: null,
        }),
      );
    }
    const renderContext = async () =>
      ContextView({ data: await loadProjectContext(env, projectRoot, { config, now: new Date() }) }).toString();
    // Cold: no reading cached (a first load, or every transcript changed); warm: only the drawn one is read.
    const cold: number[] = [];
    for (let i = 0; i < Math.min(RUNS, 5); i++) {
      rmSync(join(env.CTX_HOME, "cache", "report-rows.json"), { force: true });
      const started = performance.now();
      await renderContext();
      cold.push(performance.now() - started);
    }
    const contextPage = { cold: summarize(cold), warm: await timed(RUNS, renderContext) };
    const graph = syntheticChains();
    const chainsView = await timed(RUNS, async () =>
      ChainsView({
        data: { project: "this", matched: ["-home-dev-app"], sessions: graph, familiesLeftOut: 0, notice: null },
      }).toString(),
    );
    return {
      sessions: index.stats.ok ? index.stats.value.sessions : null,
      runs: RUNS,
      indexPage,
      chainsPage,
      contextPage: { sessions: CONTEXT_SESSIONS, transcriptMiB: 3, ...contextPage },
      chainsView: { nodes: graph.length, ...chainsView },
      budgets: BUDGETS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
