// The Synology Chat bridge (issue 13), in process with a stub Claude that answers at once and a mock Synology
// Chat on loopback: overhead per message (webhook in -> first reply post out, no pacing) p50/p95 (goal p95 <= 50 ms),
// throughput across 10 conversations, RSS over 10,000 messages (no growth), and the session file after 1,000
// messages of one conversation (goal <= 100 KB). Every message is journaled (fsync) and its session written
// atomically, as in production. BRIDGE_BENCH_MESSAGES overrides the 10,000. The flood section (issue #22, break 6):
// 80 senders at once, each streaming a 3 MB body without a token (then with a wrong one), RSS before, at its peak
// and after. BRIDGE_BENCH_SECTIONS picks sections (e.g. `flood`); all by default.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ClaudeProcesses } from "../src/bridge/claude-runner.ts";
import { type RunningBridge, startBridge } from "../src/bridge/service.ts";
import { defaultConfig } from "../src/config/defaults.ts";
import { sessionPath, sessionsDir } from "../src/store/bridge/session-store.ts";
import { startMockSynology } from "../tests/e2e/harness/mock-synology.ts";
import { buildVocabulary, createRng, paragraph } from "./synthetic-text.ts";

const TOKEN = "bench-token";
const MESSAGES = Number(process.env.BRIDGE_BENCH_MESSAGES ?? 10_000);
const SECTIONS = process.env.BRIDGE_BENCH_SECTIONS?.split(",") ?? null;
const runs = (section: string) => SECTIONS === null || SECTIONS.includes(section);
const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** After a full collection: what the process holds, not what it has not freed yet. */
function memoryMB(): { rss: number; heapUsed: number } {
  collectGarbage();
  const usage = process.memoryUsage();
  return { rss: round(usage.rss / 1_048_576, 1), heapUsed: round(usage.heapUsed / 1_048_576, 1) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

// Text that compresses like conversation (Zipf-distributed words), not like a repeated sentence.
const rng = createRng(13);
const vocabulary = buildVocabulary(rng, 20_000);

/** Claude Code replaced by an answer at once: a reply of ~1,500 characters and a realistic usage. */
function instantClaude(): ClaudeProcesses {
  let sessions = 0;
  return {
    run: async (request) => {
      sessions += 1;
      return {
        text: `Answer to: ${request.prompt.slice(0, 60)}\n\n${paragraph(rng, vocabulary, 250)}`,
        sessionId: request.resume ?? `stub-${sessions}`,
        usage: { input_tokens: 200, output_tokens: 400, cache_read_input_tokens: 20_000 },
        contextTokens: 20_200,
        durationMs: 0,
      };
    },
    killAll: () => {},
  };
}

async function withBridge<T>(
  work: (
    bridge: RunningBridge,
    chat: Awaited<ReturnType<typeof startMockSynology>>,
    env: NodeJS.ProcessEnv,
  ) => Promise<T>,
): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), "ctx-bench-bridge-"));
  const env = { HOME: home, CTX_HOME: join(home, ".ctx") };
  const chat = await startMockSynology({ keepText: false });
  const config = defaultConfig();
  config.bridge.synology = { token: TOKEN, incomingUrl: chat.url, mode: "chatbot" };
  config.bridge.paceMs = 0;
  const bridge = await startBridge({ config, env, version: "bench", port: 0, log: () => {}, claude: instantClaude() });
  try {
    return await work(bridge, chat, env);
  } finally {
    await bridge.stop();
    await chat.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const form = (user: number, text: string) =>
  new URLSearchParams({ token: TOKEN, user_id: String(user), username: `user${user}`, text }).toString();

async function send(bridge: RunningBridge, user: number, text: string): Promise<void> {
  const response = await fetch(`${bridge.url}/webhook`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form(user, text),
  });
  if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
  await response.arrayBuffer();
}

const prompt = (i: number) =>
  `Message ${i}: ${"please look at the deployment logs and tell me what failed. ".repeat(8)}`;

export async function run(): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = { loadavgAtStart: loadavg() };

  if (runs("flood")) results.flood = await withBridge(async (bridge) => measureFlood(bridge.url));

  // Overhead: one message at a time, webhook sent -> first reply post received.
  if (runs("overhead"))
    results.overhead = await withBridge(async (bridge, chat) => {
      const times: number[] = [];
      for (let i = 0; i < 330; i += 1) {
        const start = performance.now();
        await send(bridge, 1, prompt(i));
        const [post] = (await chat.waitForPosts(i + 1)).slice(i);
        if (i >= 30) times.push((post?.at ?? start) - start);
      }
      times.sort((a, b) => a - b);
      return {
        messages: times.length,
        p50Ms: round(percentile(times, 50)),
        p95Ms: round(percentile(times, 95)),
        goalP95Ms: 50,
      };
    });

  // Throughput and memory: 10 conversations sending as fast as they can.
  if (runs("throughput"))
    results.throughput = await withBridge(async (bridge, chat) => {
      const memoryAt: Record<string, { rss: number; heapUsed: number }> = {};
      const start = performance.now();
      const users = 10;
      let sent = 0;
      await Promise.all(
        Array.from({ length: users }, async (_, user) => {
          for (let i = user; i < MESSAGES; i += users) {
            await send(bridge, 100 + user, prompt(i));
            sent += 1;
            // Measured at 1,000 and halfway: growth that keeps going between them and the end is a leak.
            if (sent === 1_000 || sent === Math.floor(MESSAGES / 2)) {
              const at = sent;
              await chat.waitForPosts(at, 1_200_000);
              memoryAt[`after${at}`] = memoryMB();
            }
          }
        }),
      );
      await chat.waitForPosts(MESSAGES, 1_200_000);
      const seconds = (performance.now() - start) / 1000;
      memoryAt.afterAll = memoryMB();
      return {
        messages: MESSAGES,
        conversations: users,
        seconds: round(seconds),
        messagesPerSecond: round(MESSAGES / seconds),
        // The bench process holds the bridge and the load generator (the mock chat keeps 64 characters a post).
        memoryMB: memoryAt,
      };
    });

  // Session file after 1,000 messages of one conversation.
  if (runs("sessionFile"))
    results.sessionFile = await withBridge(async (bridge, chat, env) => {
      for (let i = 0; i < 1_000; i += 1) await send(bridge, 7, prompt(i));
      await chat.waitForPosts(1_000, 600_000);
      const bytes = statSync(sessionPath(sessionsDir(env), "dm:7")).size;
      return { messages: 1_000, bytes, kilobytes: round(bytes / 1024, 1), goalKilobytes: 100 };
    });
  results.loadavgAtEnd = loadavg();
  return results;
}

/** 80 senders at once, each streaming 3 MB (one shared 64 KiB chunk, so the senders hold next to nothing). */
async function measureFlood(url: string): Promise<Record<string, unknown>> {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const flood = async (head: string) => {
    const before = memoryMB();
    let peak = process.memoryUsage().rss;
    let peakBuffers = process.memoryUsage().arrayBuffers;
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      peak = Math.max(peak, usage.rss);
      peakBuffers = Math.max(peakBuffers, usage.arrayBuffers);
    }, 10);
    const answers: Record<string, number> = {};
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 80 }, async () => {
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new TextEncoder().encode(head)),
          pull: (controller) => {
            if (sent >= 3_000_000) return controller.close();
            controller.enqueue(chunk);
            sent += chunk.length;
          },
        });
        let answer: string;
        try {
          const response = await fetch(`${url}/webhook`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body,
            duplex: "half",
          } as RequestInit);
          await response.arrayBuffer();
          answer = String(response.status);
        } catch {
          // A 503 (or 401) sent before the body was read closes the connection under the sender.
          answer = "connection closed";
        }
        answers[answer] = (answers[answer] ?? 0) + 1;
      }),
    );
    clearInterval(sampler);
    const seconds = round((performance.now() - start) / 1000);
    return {
      answers,
      seconds,
      rssMB: { before: before.rss, peak: round(peak / 1_048_576, 1), after: memoryMB().rss },
      // Buffers outside the heap (request bodies live here): what the bridge holds, whatever the allocator keeps.
      arrayBuffersPeakMB: round(peakBuffers / 1_048_576, 1),
    };
  };
  return {
    senders: 80,
    bodyBytes: 3_000_000,
    noToken: await flood("user_id=7&text="),
    wrongTokenFirst: await flood("token=wrong&user_id=7&text="),
  };
}

function loadavg(): string {
  // Next to the measurements: the machines are shared, and the figures mean little without it.
  try {
    return readFileSync("/proc/loadavg", "utf8").trim();
  } catch {
    return "n/a";
  }
}
