// `ctx ui` over the 10,000-session bench corpus (bench/cli.bench.ts builds and caches its index): the BUILT binary
// started with --json, then, on loopback, its first load as a browser makes it (the printed link, the redirect with
// the cookie, the page, then its script and style sheet at once) in fresh servers; the search-as-you-type request (the
// results fragment, the index searched as it is) warm, p50 and p95 over queries of the corpus's own words; the
// server's RSS after them (and its peak); the page's assets and a results page gzip-compressed. The bars:
// first load <= 300 ms, search p95 <= 100 ms warm, RSS <= 200 MB, assets <= 300 KB compressed.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { ensureIndexHome, searchQueries } from "./cli.bench.ts";
import { quantileMs, summarize } from "./process-timing.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const ctxBin = process.env.CTX_BENCH_CTX_BIN ?? join(root, "dist", "ctx.js");
const FIRST_LOADS = Number(process.env.CTX_BENCH_UI_STARTS ?? 8);
const SEARCHES = Number(process.env.CTX_BENCH_UI_SEARCHES ?? 60);

interface Server {
  child: ChildProcess;
  url: string;
  origin: string;
}

function startUi(env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, [ctxBin, "ui", "--json"], { env, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("\n")) return;
      const { url } = JSON.parse(out) as { url: string };
      resolve({ child, url, origin: new URL(url).origin });
    });
    child.on("exit", (code) => reject(new Error(`ctx ui exited ${code}`)));
  });
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

/** The printed link as a browser opens it: the redirect's cookie, the page, then its two assets at once. */
async function firstLoad(server: Server): Promise<{ ms: number; cookie: string; html: string }> {
  const begun = performance.now();
  const swapped = await fetch(server.url, { redirect: "manual" });
  const cookie = (swapped.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const page = await fetch(`${server.origin}/`, { headers: { cookie } });
  const html = await page.text();
  await Promise.all(
    ["/assets/page.js", "/assets/style.css"].map(async (path) =>
      (await fetch(`${server.origin}${path}`, { headers: { cookie } })).text(),
    ),
  );
  return { ms: performance.now() - begun, cookie, html };
}

function rssMiB(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMiB: Math.round(kib("VmRSS") / 102.4) / 10, peakMiB: Math.round(kib("VmHWM") / 102.4) / 10 };
}

export async function run(): Promise<Record<string, unknown>> {
  if (!existsSync(ctxBin)) throw new Error(`${ctxBin} is missing: run \`pnpm build\` first`);
  const index = ensureIndexHome();
  // The cached index is searched as it is (the typing fragment never catches up), so it is not written.
  const env = { ...process.env, CTX_HOME: index.home, CLAUDE_CONFIG_DIR: index.claudeDir, CTX_LOG_LEVEL: "silent" };
  const loads: number[] = [];
  for (let i = 0; i <= FIRST_LOADS; i++) {
    const server = await startUi(env);
    const load = await firstLoad(server);
    if (i > 0) loads.push(load.ms);
    await stop(server);
  }
  const server = await startUi(env);
  const { cookie } = await firstLoad(server);
  const queries = searchQueries(SEARCHES + 5);
  const searches: number[] = [];
  let resultsPage = "";
  for (const [i, query] of queries.entries()) {
    const begun = performance.now();
    const answer = await fetch(`${server.origin}/?q=${encodeURIComponent(query)}`, {
      headers: { cookie, "x-ctx-fragment": "1" },
    });
    const body = await answer.text();
    if (answer.status !== 200) throw new Error(`search answered ${answer.status}: ${body.slice(0, 200)}`);
    // The first few warm the server (the index's pages, the compiled statements).
    if (i >= 5) searches.push(performance.now() - begun);
    resultsPage = body;
  }
  const memory = rssMiB(server.child.pid ?? 0);
  await stop(server);
  const asset = (name: string) => readFileSync(join(root, "dist", "ui", name));
  const gz = (data: Buffer | string) => gzipSync(data).length;
  const script = asset("page.js");
  const style = asset("style.css");
  return {
    binary: ctxBin,
    corpus: index.claudeDir,
    firstLoad: {
      what: "link, redirect, page, script and style",
      ...summarize(loads),
      p95Ms: quantileMs(loads, 0.95),
      budgetMs: 300,
    },
    searchAsYouType: {
      what: "results fragment, warm",
      ...summarize(searches),
      p95Ms: quantileMs(searches, 0.95),
      budgetP95Ms: 100,
    },
    serverMemory: { ...memory, budgetMiB: 200 },
    assets: {
      scriptBytes: script.length,
      styleBytes: style.length,
      gzipBytes: gz(script) + gz(style),
      resultsFragmentGzipBytes: gz(resultsPage),
      budgetGzipBytes: 300 * 1024,
    },
    loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}
