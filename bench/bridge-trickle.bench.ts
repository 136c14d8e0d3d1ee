// Strangers trickling bodies at the Synology Chat bridge (issue 31, section 5): 64 connections without a token, each
// sending `text=` and then one byte every 3 s (and opening a new one as soon as the bridge closes it), while 100
// valid messages arrive from 10 people, one every 50 ms. The same 100 messages without the strangers first, in the
// same run: the goal is every valid message accepted (200) and its reply posted, and the webhook's p95 answer time
// at most 1 s above the run without strangers. RSS of the process (the bridge, in process, and the strangers'
// sockets) before, at its peak and after. In process with an instant stub Claude and a mock chat on loopback, as in
// bridge.bench.ts. BRIDGE_TRICKLE_STRANGERS overrides the 64.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ClaudeProcesses } from "../src/bridge/claude-runner.ts";
import { type RunningBridge, startBridge } from "../src/bridge/service.ts";
import { defaultConfig } from "../src/config/defaults.ts";
import { startMockSynology } from "../tests/e2e/harness/mock-synology.ts";

const TOKEN = "bench-token";
const STRANGERS = Number(process.env.BRIDGE_TRICKLE_STRANGERS ?? 64);
const MESSAGES = 100;
const SPACING_MS = 50;
const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

function rssMB(): number {
  return round(process.memoryUsage().rss / 1_048_576);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function instantClaude(): ClaudeProcesses {
  let sessions = 0;
  return {
    run: async (request) => {
      sessions += 1;
      return {
        text: `Answer to: ${request.prompt.slice(0, 60)}`,
        sessionId: request.resume ?? `stub-${sessions}`,
        usage: { input_tokens: 200, output_tokens: 40 },
        contextTokens: 2_000,
        durationMs: 0,
      };
    },
    killAll: () => {},
  };
}

/** `count` strangers, each one connection at a time: opened again as soon as the bridge closes it. */
function startStrangers(port: number, count: number) {
  const stats = { connections: 0, answers: {} as Record<string, number> };
  const live = new Set<Socket>();
  let stopped = false;
  const open = () => {
    if (stopped) return;
    stats.connections += 1;
    const socket = connect(port, "127.0.0.1");
    live.add(socket);
    let heard = "";
    socket.on("data", (chunk) => (heard += chunk.toString("latin1")));
    socket.on("error", () => {});
    socket.write(
      "POST /webhook HTTP/1.1\r\nHost: bridge\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Content-Length: 1000000\r\n\r\ntext=",
    );
    const drip = setInterval(() => socket.write("a"), 3_000);
    socket.on("close", () => {
      clearInterval(drip);
      live.delete(socket);
      const status = /^HTTP\/1\.1 (\d+)/.exec(heard)?.[1] ?? "closed without an answer";
      stats.answers[status] = (stats.answers[status] ?? 0) + 1;
      setImmediate(open);
    });
  };
  for (let i = 0; i < count; i += 1) open();
  return {
    stats,
    stop: () => {
      stopped = true;
      for (const socket of live) socket.destroy();
    },
  };
}

/** 100 valid messages, one every SPACING_MS, each sent once; the webhook's answer time and the replies posted. */
async function sendValid(bridge: RunningBridge, chat: Awaited<ReturnType<typeof startMockSynology>>, tag: string) {
  const before = chat.posts.length;
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const sends: Promise<void>[] = [];
  for (let i = 0; i < MESSAGES; i += 1) {
    const user = i % 10;
    sends.push(
      (async () => {
        const start = performance.now();
        let status: string;
        try {
          const response = await fetch(`${bridge.url}/webhook`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ token: TOKEN, user_id: String(100 + user), text: `${tag} ${i}` }).toString(),
            signal: AbortSignal.timeout(60_000),
          });
          await response.arrayBuffer();
          status = String(response.status);
        } catch (error) {
          status = (error as Error).name;
        }
        times.push(performance.now() - start);
        statuses[status] = (statuses[status] ?? 0) + 1;
      })(),
    );
    await sleep(SPACING_MS);
  }
  await Promise.all(sends);
  const accepted = statuses["200"] ?? 0;
  // Every accepted message's reply, within a generous minute.
  await chat.waitForPosts(before + accepted, 60_000).catch(() => {});
  times.sort((a, b) => a - b);
  return {
    sent: MESSAGES,
    answers: statuses,
    accepted,
    repliesPosted: chat.posts.length - before,
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    maxMs: round(times.at(-1) ?? 0),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-trickle-"));
  const env = { HOME: home, CTX_HOME: join(home, ".ctx") };
  const chat = await startMockSynology({ keepText: false });
  const config = defaultConfig();
  config.bridge.synology = { token: TOKEN, incomingUrl: chat.url, mode: "chatbot" };
  config.bridge.paceMs = 0;
  const logged: string[] = [];
  const bridge = await startBridge({
    config,
    env,
    version: "bench",
    port: 0,
    log: (line) => logged.push(line),
    claude: instantClaude(),
  });
  try {
    const quiet = await sendValid(bridge, chat, "quiet");
    collectGarbage();
    const rssBefore = rssMB();
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMB())), 50);
    const strangers = startStrangers(Number(new URL(bridge.url).port), STRANGERS);
    // Let them take whatever they can first.
    await sleep(1_000);
    const underAttack = await sendValid(bridge, chat, "attacked");
    strangers.stop();
    clearInterval(sampler);
    collectGarbage();
    const addedP95Ms = round(underAttack.p95Ms - quiet.p95Ms);
    return {
      loadavg: readFileSync("/proc/loadavg", "utf8").trim(),
      strangers: STRANGERS,
      strangerConnections: strangers.stats.connections,
      strangerAnswers: strangers.stats.answers,
      withoutStrangers: quiet,
      withStrangers: underAttack,
      addedP95Ms,
      rssMB: { before: rssBefore, peak: round(peak), after: rssMB() },
      bridgeLogLines: logged.filter((line) => /no token|busy|503/.test(line)).slice(0, 6),
      passed: underAttack.accepted === MESSAGES && underAttack.repliesPosted === MESSAGES && addedP95Ms <= 1_000,
      goal: "every valid message accepted and answered with 64 strangers trickling; added p95 <= 1,000 ms",
    };
  } finally {
    await bridge.stop();
    await chat.close();
    rmSync(home, { recursive: true, force: true });
  }
}
