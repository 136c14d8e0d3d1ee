// The bridge chaos run of issue #22, shared by `bench/run.ts bridge-chaos` and tests/e2e/bridge-chaos.test.ts: the
// built `ctx bridge synology` as a real child process (so SIGKILL is real) on one fixed port, the stub Claude in
// "chaos" mode, a stand-in Synology chat on loopback that fails a share of posts at random (HTTP 500 or a reset
// connection) and all of them during one outage, SIGKILLs of the bridge at random points (started again at once),
// and a disk-full window on a small tmpfs holding CTX_HOME (where the machine lets us mount one). People send like
// Synology does: one message at a time each, a webhook that did not get 200 (503, refused while the bridge is down,
// a reset) sent again with the same post_id. The report: what was accepted, answered once, twice or lost, the parts,
// the longest delay, the time the bridge took to deliver what it owed once the outage ended, the failed turns and
// their causes (from the bridge's log), the bridge's RSS per incarnation, the timeline of what was done to it.
// `cpuHogs` busy-loop processes beside it play a machine busy with other work (issue 31).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom } from "../../helpers/seeded-random.ts";
import { type BridgeProcess, startBridgeProcess } from "./bridge-process.ts";
import {
  type ChaosMessage,
  type ChaosTally,
  drainSeconds,
  everyReplyComplete,
  type MessageTiming,
  planChaosMessages,
  plannedReplyParts,
  round,
  tallyChaos,
} from "./chaos-traffic.ts";
import { type PostFate, startMockSynology } from "./mock-synology.ts";
import { CTX_BIN, createSandbox, runCtx, type Sandbox } from "./sandbox.ts";
import { fillDisk, mountSmallTmpfs, unmountSmallTmpfs } from "./small-disk.ts";

const STUB = fileURLToPath(new URL("./stub-claude.mjs", import.meta.url));
const TOKEN = "chaos-token";

/**
 * Bridge settings for a chaos run that ends in minutes on two cores: quick pacing and retries, short chat messages
 * (replies of several parts), and context limits low enough that conversations cross them (with the stub's usage,
 * the soft limit by growth and the hard one in the middle of long messages).
 */
export const CHAOS_BRIDGE_SETTINGS: Readonly<Record<string, string>> = {
  CTX_BRIDGE__CONCURRENCY: "8",
  CTX_BRIDGE__PACE_MS: "100",
  CTX_BRIDGE__RETRY_BASE_MS: "250",
  CTX_BRIDGE__POST_TIMEOUT_MS: "5000",
  CTX_BRIDGE__OUTPUT_CHUNK_CHARS: "1000",
  CTX_BRIDGE__SOFT_LIMIT_TOKENS: "40000",
  CTX_BRIDGE__HARD_LIMIT_TOKENS: "45000",
  CTX_BRIDGE__STOP_GRACE_MS: "500",
};

export interface ChaosOptions {
  messages: number;
  users: number;
  /** Share of messages over 15,000 characters. */
  longShare: number;
  /** Share of posts to the chat that fail at random (outside the outage). */
  postFailureRate: number;
  outageSeconds: number;
  kills: number;
  /** Seconds the disk stays full; 0 = no disk-full window. */
  diskFullSeconds: number;
  /** Size of the tmpfs for CTX_HOME (mount's syntax). */
  diskSize: string;
  /** Mean pause of a person between getting 200 and sending the next message. */
  thinkMs: number;
  /** Stop waiting once nothing has reached the chat for this long after the chaos (while the bridge owes work);
   *  0: wait until nothing is owed, or the deadline. */
  settleSeconds: number;
  /** Busy-loop processes run beside the bridge for the whole run (0: none). */
  cpuHogs?: number;
  /** Give up waiting altogether after this long. */
  deadlineSeconds: number;
  seed: number;
  /** CTX_BRIDGE__* settings for the bridge (pacing, retries, limits, concurrency). */
  bridgeEnv: Record<string, string>;
  progress?: (line: string) => void;
}

interface Incarnation {
  pid: number | undefined;
  startedAtSeconds: number;
  rssStartMB: number | null;
  rssEndMB: number | null;
  rssMaxMB: number | null;
  ended: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** VmRSS of a process in MB, or null once it is gone. */
function rssMB(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] === undefined ? null : round(Number(match[1]) / 1024);
  } catch {
    return null;
  }
}

/** A port free right now, kept for every incarnation so the people's retries reach the restarted bridge. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The webhook's HTTP status, or 0 when it could not be reached (refused, reset, timed out). */
async function postWebhook(port: number, body: string): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/webhook`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * What `ctx bridge status --json` says the bridge still owes: every top-level number named pending… (today
 * `pendingMessages`; a reply outbox adds its pending parts), or null when it cannot tell.
 */
async function owedByBridge(sandbox: Sandbox, home: string): Promise<number | null> {
  const result = await runCtx(sandbox, ["bridge", "status", "--json"], { env: { CTX_HOME: home }, timeoutMs: 30_000 });
  try {
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    return Object.entries(report)
      .filter(([name, value]) => name.startsWith("pending") && typeof value === "number")
      .reduce((sum, [, value]) => sum + (value as number), 0);
  } catch {
    return null;
  }
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** The bridge's failed turns by cause (numbers and ids made generic, so like causes add up). */
function failedTurnCauses(log: string): Record<string, number> {
  const causes: Record<string, number> = {};
  const add = (cause: string) => {
    const generic = cause
      .replace(/MSG-u\d+-\d+/g, "MSG-…")
      .replace(/\d+/g, "N")
      .slice(0, 200);
    causes[generic] = (causes[generic] ?? 0) + 1;
  };
  for (const match of log.matchAll(/^bridge: message \S+: the turn for part \d+ of \d+ failed: (.*)$/gm))
    add(`turn: ${match[1]}`);
  for (const match of log.matchAll(/^bridge: s-[0-9a-f]+ failed: (.*)$/gm)) add(`store: ${match[1]}`);
  for (const _ of log.matchAll(/^bridge: message \S+ did not fit in one Claude session/gm))
    add("did not fit in one Claude session (parts left unsent, by design past the hard limit)");
  return causes;
}

function loadavg(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").trim();
  } catch {
    return "n/a";
  }
}

/** `count` busy loops in child processes; the returned function ends them. */
function startCpuHogs(count: number): () => void {
  const hogs: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
  return () => {
    for (const hog of hogs) hog.kill("SIGKILL");
  };
}

export async function runBridgeChaos(options: ChaosOptions): Promise<ChaosTally & Record<string, unknown>> {
  if (!existsSync(CTX_BIN)) throw new Error(`${CTX_BIN} is missing: run pnpm build first`);
  const wallStart = performance.now();
  const loadavgAtStart = loadavg();
  const deadline = wallStart + options.deadlineSeconds * 1000;
  const seconds = () => round((performance.now() - wallStart) / 1000);
  const say = options.progress ?? (() => {});
  const random = seededRandom(options.seed);
  const messages = planChaosMessages(options.messages, options.users, options.longShare, options.seed);
  const timing = new Map<string, MessageTiming>(messages.map((m) => [m.id, { acceptedAt: null }]));
  const events: { at: number; what: string }[] = [];
  const event = (what: string) => {
    events.push({ at: seconds(), what });
    say(`chaos ${seconds()}s: ${what}`);
  };

  const sandbox = await createSandbox({ git: false });
  const home = join(sandbox.root, "ctx-home");
  mkdirSync(home);
  const refused = options.diskFullSeconds > 0 ? mountSmallTmpfs(home, options.diskSize) : "not asked for";
  const chatStats = { delivered: 0, failed: 0, reset: 0 };
  let outage = false;
  let outageEndedAt: number | null = null;
  /** Messages whose reply the outage held back: a post of theirs failed during it. */
  const heldByOutage = new Set<string>();
  const outcome = (raw: string): PostFate => {
    if (outage) {
      const id = /MSG-u\d+-\d+/.exec(new URLSearchParams(raw).get("payload") ?? "")?.[0];
      if (id !== undefined) heldByOutage.add(id);
    }
    const fate: PostFate =
      outage || random() < options.postFailureRate ? (random() < 0.5 ? "fail" : "reset") : "deliver";
    chatStats[fate === "deliver" ? "delivered" : fate === "fail" ? "failed" : "reset"] += 1;
    return fate;
  };
  const chat = await startMockSynology({ outcome });
  const port = await freePort();
  const env = {
    CTX_HOME: home,
    CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN,
    CTX_BRIDGE__SYNOLOGY__INCOMING_URL: chat.url,
    CTX_BRIDGE__SYNOLOGY__MODE: "chatbot",
    CTX_BRIDGE__CLAUDE__COMMAND: STUB,
    STUB_CLAUDE_MODE: "chaos",
    STUB_CLAUDE_STATE: join(sandbox.root, "claude-state"),
    STUB_CLAUDE_ORPHANS: join(sandbox.root, "orphaned-parts"),
    ...options.bridgeEnv,
  };
  mkdirSync(env.STUB_CLAUDE_STATE);
  const incarnations: Incarnation[] = [];
  const logs: string[] = [];
  let bridge: BridgeProcess | null = null;
  let current: Incarnation | null = null;
  /** Started again until it listens, like a service manager would (a full disk may stop a start). */
  const start = async (): Promise<number | undefined> => {
    for (;;) {
      try {
        bridge = await startBridgeProcess(sandbox, env, port);
        break;
      } catch (error) {
        event(`start failed: ${(error as Error).message.split("\n").slice(0, 2).join(" ").slice(0, 300)}`);
        if (performance.now() > deadline) throw error;
        await sleep(1_000);
      }
    }
    current = {
      pid: bridge.child.pid,
      startedAtSeconds: seconds(),
      rssStartMB: rssMB(bridge.child.pid),
      rssEndMB: null,
      rssMaxMB: null,
      ended: "running",
    };
    incarnations.push(current);
    return current.pid;
  };
  const stop = async (signal: NodeJS.Signals) => {
    const running = bridge as BridgeProcess | null;
    const incarnation = current as Incarnation | null;
    if (running === null || incarnation === null) return;
    incarnation.rssEndMB = rssMB(running.child.pid);
    if (incarnation.rssEndMB !== null) incarnation.rssMaxMB = Math.max(incarnation.rssMaxMB ?? 0, incarnation.rssEndMB);
    running.child.kill(signal);
    // A bridge that does not stop on SIGTERM (well past its grace period) is killed; its "ended" says so.
    const stuck = setTimeout(() => running.child.kill("SIGKILL"), 15_000);
    const exit = await running.exited;
    clearTimeout(stuck);
    incarnation.ended = exit.signal ?? `exit ${exit.code}`;
    logs.push(running.stderr());
    bridge = null;
  };
  const sampler = setInterval(() => {
    const incarnation = current as Incarnation | null;
    const rss = rssMB((bridge as BridgeProcess | null)?.child.pid);
    if (incarnation !== null && rss !== null) incarnation.rssMaxMB = Math.max(incarnation.rssMaxMB ?? 0, rss);
  }, 1_000);

  const webhook = { attempts: 0, notAccepted: 0 };
  let acceptedCount = 0;
  /** Synology's side: one person's messages one at a time, each re-sent (same post_id) until it gets 200. */
  const sendAs = async (mine: ChaosMessage[]) => {
    for (const message of mine) {
      await sleep(random() * 2 * options.thinkMs);
      const body = new URLSearchParams({
        token: TOKEN,
        user_id: String(100 + message.user),
        username: `user${message.user}`,
        post_id: message.postId,
        text: message.text,
      }).toString();
      for (let attempt = 0; performance.now() < deadline; attempt += 1) {
        webhook.attempts += 1;
        const status = await postWebhook(port, body);
        if (status === 200) {
          const entry = timing.get(message.id);
          if (entry !== undefined) entry.acceptedAt = performance.now();
          acceptedCount += 1;
          break;
        }
        webhook.notAccepted += 1;
        await sleep(Math.min(2_000, 250 * 2 ** attempt));
      }
    }
  };

  // The plan, in accepted messages: when the outage starts, when each SIGKILL and the disk-full window come.
  const at = (from: number, to: number) => Math.floor(options.messages * (from + random() * (to - from)));
  const outageAt = at(0.15, 0.35);
  // One kill at random in each of `kills` equal stretches of 10-90%, so the incarnations do not all bunch up.
  const stretch = 0.8 / Math.max(1, options.kills);
  const killsAt = Array.from({ length: options.kills }, (_, k) => at(0.1 + k * stretch, 0.1 + (k + 1) * stretch));
  const diskFullAt = refused === null ? at(0.2, 0.8) : Number.POSITIVE_INFINITY;
  const chaos = async () => {
    const waitFor = async (accepted: number) => {
      while (acceptedCount < accepted && performance.now() < deadline) await sleep(50);
    };
    const outageDone = (async () => {
      await waitFor(outageAt);
      outage = true;
      event(`chat outage starts (${options.outageSeconds} s, every post fails)`);
      await sleep(options.outageSeconds * 1000);
      outage = false;
      outageEndedAt = performance.now();
      event("chat outage ends");
    })();
    const diskDone = (async () => {
      if (!Number.isFinite(diskFullAt)) return;
      await waitFor(diskFullAt);
      const filler = join(home, "filler");
      fillDisk(filler);
      event(`disk full (${options.diskFullSeconds} s)`);
      await sleep(options.diskFullSeconds * 1000);
      rmSync(filler);
      event("disk has room again");
    })();
    for (const [index, accepted] of killsAt.entries()) {
      await waitFor(accepted);
      await sleep(random() * 1_500);
      await stop("SIGKILL");
      event(`SIGKILL ${index + 1} of ${options.kills} (after ${acceptedCount} accepted)`);
      await sleep(200 + random() * 1_300);
      event(`bridge started again (pid ${await start()})`);
    }
    await Promise.all([outageDone, diskDone]);
  };

  /** The run itself; whatever happens in it, the bridge, the chat, the mount and the sandbox go afterwards. */
  const drive = async (): Promise<{ owed: number | null; orphans: string }> => {
    event(`bridge started (pid ${await start()}) on port ${port}`);
    const byUser = Array.from({ length: options.users }, (_, user) => messages.filter((m) => m.user === user));
    let chaosOver = false;
    let lastPosts = -1;
    let quietSince = performance.now();
    const chaosDone = chaos().then(() => {
      chaosOver = true;
      // The quiet that ends the wait is counted from the end of the chaos, not from before it.
      quietSince = performance.now();
    });
    const sendingDone = Promise.all(byUser.map(sendAs)).then(() => event(`all ${acceptedCount} messages accepted`));

    // Wait, once the chaos is over and every message accepted: until every reply is complete; or, after 3 s without a
    // post, until `ctx bridge status` says the bridge owes nothing more (what it gave up on it no longer owes); or
    // until nothing has moved for settleSeconds while it still owes something; or the deadline.
    let allSent = false;
    void sendingDone.then(() => (allSent = true));
    let settled = "every reply complete";
    let owed: number | null = null;
    let askedAt = 0;
    for (;;) {
      await sleep(250);
      const now = performance.now();
      if (chat.posts.length !== lastPosts) {
        lastPosts = chat.posts.length;
        quietSince = now;
      }
      if (now > deadline) {
        settled = `deadline of ${options.deadlineSeconds} s`;
        break;
      }
      if (!chaosOver || !allSent) continue;
      if (everyReplyComplete(messages, timing, chat.posts)) break;
      if (now - quietSince > 3_000 && now - askedAt > 3_000) {
        owed = await owedByBridge(sandbox, home);
        askedAt = performance.now();
        if (owed === 0) {
          settled = "ctx bridge status: nothing owed";
          break;
        }
      }
      if (options.settleSeconds > 0 && now - quietSince > options.settleSeconds * 1000) {
        settled = `nothing new for ${options.settleSeconds} s (bridge status: ${owed ?? "?"} owed)`;
        break;
      }
    }
    await Promise.all([sendingDone, chaosDone]);
    event(`stopped waiting: ${settled}`);
    await stop("SIGTERM");
    // What the journal still owes once the bridge has stopped cleanly (the figure read while waiting may be stale).
    owed = await owedByBridge(sandbox, home);
    return { owed, orphans: existsSync(env.STUB_CLAUDE_ORPHANS) ? readFileSync(env.STUB_CLAUDE_ORPHANS, "utf8") : "" };
  };
  let outcomeOfRun: { owed: number | null; orphans: string };
  const stopHogs = startCpuHogs(options.cpuHogs ?? 0);
  try {
    outcomeOfRun = await drive();
  } finally {
    stopHogs();
    clearInterval(sampler);
    await stop("SIGKILL");
    await chat.close();
    if (refused === null) unmountSmallTmpfs(home);
    await sandbox.cleanup();
  }
  const { owed, orphans } = outcomeOfRun;
  const log = logs.join("");
  const chunkSetting = (name: string, fallback: number) => Number(options.bridgeEnv[`CTX_BRIDGE__${name}`] ?? fallback);
  const inputChunkChars = chunkSetting("INPUT_CHUNK_CHARS", 15_000);
  const outputChunkChars = chunkSetting("OUTPUT_CHUNK_CHARS", 3_500);
  const tally = tallyChaos(messages, timing, chat.posts, (message) =>
    plannedReplyParts(message, inputChunkChars, outputChunkChars),
  );
  return {
    sent: messages.length,
    ...tally,
    webhook,
    chat: chatStats,
    bridgeLog: {
      partsGivenUp: count(log, /lost after \d+ tries/g),
      refused503: count(log, /answered 503/g),
      duplicatePostIdsRefused: count(log, /already accepted, not run twice/g),
      damagedJournalLines: [...log.matchAll(/skipped (\d+) damaged journal line/g)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      ),
      rollovers: {
        softLimit: count(log, /summarised\(soft-limit\)/g),
        hardLimit: count(log, /summarised\(hard-limit\)/g),
        idle: count(log, /summarised\(idle\)/g),
      },
      failedTurns: count(log, / FAILED /g),
      failedTurnCauses: failedTurnCauses(log),
      conversationsStopped: count(log, /bridge: s-[0-9a-f]+ stopped: /g),
    },
    owedAtEnd: owed,
    // From the outage's end until every reply it held back (a post of it failed during the outage) was whole in the
    // chat (null: some never was); and until every message accepted before its end was answered whole, the later
    // messages of those conversations included (their Claude turns wait behind the reply owed, so this is bound by
    // how fast Claude turns run on the machine).
    drainAfterOutageSeconds:
      outageEndedAt === null ? null : drainSeconds(messages, timing, chat.posts, outageEndedAt, heldByOutage),
    repliesHeldByOutage: heldByOutage.size,
    backlogDrainAfterOutageSeconds:
      outageEndedAt === null ? null : drainSeconds(messages, timing, chat.posts, outageEndedAt),
    duplicatedPostsAtSeconds: Object.fromEntries(
      tally.duplicatedIds.map((id) => [
        id,
        chat.posts.filter((post) => post.text.includes(id)).map((post) => round((post.at - wallStart) / 1000)),
      ]),
    ),
    loadavgAtEnd: loadavg(),
    cpuHogs: options.cpuHogs ?? 0,
    loadavgAtStart,
    orphanedParts: orphans.split("\n").filter(Boolean).length,
    orphanedSamples: orphans.split("\n").filter(Boolean).slice(0, 5),
    diskFull: refused === null ? `${options.diskFullSeconds} s on a ${options.diskSize} tmpfs` : `skipped: ${refused}`,
    incarnations,
    events,
    wallSeconds: seconds(),
  };
}
