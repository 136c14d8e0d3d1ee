// `ctx bridge synology` as a service, in named steps (each in its own module, each tested on its own):
//   1. open the store: the bridge's folder, Claude's workdir, the lock that makes it the one bridge of this
//      CTX_HOME (./bridge-store.ts);
//   2. recover the journal: what a crash or a stop left owed (./bridge-store.ts);
//   3. build the runner and the poster: Claude Code as child processes with the bridge's secrets kept out of
//      their environment (./claude-runner.ts, core/bridge/child-env.ts), and the chat's incoming webhook
//      (./poster.ts);
//   4. build the work: the queue, the conversations and the reply outbox, the recovered work first
//      (./bridge-work.ts);
//   5. start HTTP: the webhook app on loopback by default (./app.ts), through ctx's shared listener
//      (../http/listener.ts: its request time limit keeps a trickling sender from holding a body slot);
//   6. stop: no new messages, running turns get a grace period, then their process groups are killed; the
//      journal keeps them and every reply still waiting for the chat for the next start.
// A step that fails undoes the ones before it (the lock let go, the journal closed) and says why.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { claudeConfigDir, claudeProjectDirName } from "../config/claude-paths.ts";
import type { Config } from "../config/schema.ts";
import { bridgeChildEnv } from "../core/bridge/child-env.ts";
import { redactText } from "../core/redact/redact.ts";
import { type ListenHints, listenHttp } from "../http/listener.ts";
import type { JournalWrite } from "../store/bridge/journal-store.ts";
import { sessionsDir } from "../store/bridge/session-store.ts";
import { createWebhookApp } from "./app.ts";
import { type BridgeStore, openBridgeStore, recoverJournal } from "./bridge-store.ts";
import { type BridgeWork, createBridgeWork } from "./bridge-work.ts";
import { type ClaudeProcesses, createClaudeRunner } from "./claude-runner.ts";
import { createPoster, type Poster } from "./poster.ts";
import { type BridgeSettings, resolveBridgeSettings } from "./settings.ts";
import { makeRollingSummary, type RollingSummaryDeps } from "./summarize.ts";

export interface BridgeServiceOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  version: string;
  host?: string;
  port?: number;
  /** One line per message and the bridge's notices (stderr in the CLI). */
  log: (line: string) => void;
  now?: () => Date;
  fetch?: typeof fetch;
  /** Tests: a summariser client instead of the configured provider's. */
  summaryClient?: RollingSummaryDeps["client"];
  /** Benchmarks: Claude Code replaced (default: `bridge.claude.command` as a child process). */
  claude?: ClaudeProcesses;
  /** Tests: the journal's write(2) replaced (a disk that fills up). */
  journalWrite?: JournalWrite;
}

export interface RunningBridge {
  url: string;
  port: number;
  /** Resolves when the bridge has stopped (after stop()). */
  stopped: Promise<void>;
  stop(): Promise<void>;
}

export async function startBridge(options: BridgeServiceOptions): Promise<RunningBridge> {
  const settings = resolveBridgeSettings(options.config, options.env, {
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  const now = options.now ?? (() => new Date());
  const log = options.log;
  const allowlist = options.config.redaction.allowlist;
  const redact = (text: string) => redactText(text, { allowlist }).text;

  const store = await openBridgeStore({
    dir: settings.dir,
    workdir: settings.workdir,
    ownWorkdir: options.config.bridge.claude.workdir.trim() === "",
  });
  settings.workdir = store.workdir;
  const { journal, open, seen } = await recoverJournal(store, {
    log,
    ...(options.journalWrite === undefined ? {} : { write: options.journalWrite }),
  });
  const { claude, poster, childEnv } = buildRunnerAndPoster(settings, options, redact);
  const work = buildWork(settings, options, { journal, claude, poster, childEnv, redact, now });
  work.resume(open);
  const sessions = sessionsDir(options.env);
  const app = createWebhookApp({
    token: settings.synology.token,
    maxInputBytes: settings.maxInputBytes,
    version: options.version,
    redact,
    now,
    warn: log,
    accept: work.accept,
    seenPostKeys: seen,
    health: async () => ({
      queued: work.queue.waiting(),
      running: work.queue.running(),
      sessions: await readdir(sessions).then(
        (names) => names.filter((name) => name.endsWith(".ctx")).length,
        () => 0,
      ),
    }),
  });
  const http = await listenHttp(app, {
    host: settings.host,
    port: settings.port,
    hints: LISTEN_HINTS,
  }).catch(async (error: unknown) => {
    await work.stop(0, claude.killAll);
    await journal.close();
    await store.release();
    throw error;
  });
  log(
    `bridge: listening on http://${settings.host}:${http.port}/webhook (Claude: ${settings.claude.command} in ${settings.workdir}, ${settings.concurrency} at a time)`,
  );

  let stopping: Promise<void> | null = null;
  let finished: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (finished = resolve));
  const stop = () => {
    stopping ??= stopBridge({ http, work, journal, store, claude, graceMs: settings.stopGraceMs }).then(finished);
    return stopping;
  };
  return { url: `http://${settings.host}:${http.port}`, port: http.port, stopped, stop };
}

/** What `ctx bridge synology` says when it cannot listen (its flags and settings; the listener is shared). */
export const LISTEN_HINTS: ListenHints = {
  addressInUse: "another program uses that port: pick one with --port",
  other: "check bridge.host",
};

/**
 * Step 3: Claude Code as child processes (or the benchmark's stand-in) and the chat's poster. Every child the
 * bridge starts (turns, the rolling summary) gets the operator's environment without the bridge's own settings
 * and secrets: Claude's tools, hooks and MCP servers inherit it.
 */
export function buildRunnerAndPoster(
  settings: BridgeSettings,
  options: Pick<BridgeServiceOptions, "env" | "claude" | "fetch" | "log">,
  redact: (text: string) => string,
): { claude: ClaudeProcesses; poster: Poster; childEnv: NodeJS.ProcessEnv } {
  const childEnv = bridgeChildEnv(options.env, {
    token: settings.synology.token,
    incomingUrl: settings.synology.incomingUrl,
  });
  const claude =
    options.claude ??
    createClaudeRunner({
      command: settings.claude.command,
      args: settings.claude.args,
      cwd: settings.workdir,
      timeoutMs: settings.claude.timeoutMs,
      env: childEnv,
      transcriptDir: join(claudeConfigDir(options.env), "projects", claudeProjectDirName(settings.workdir)),
      warn: (line) => options.log(redact(line)),
    });
  // One try per post (the "working on it" notice included): the outbox retries replies, never a courtesy message.
  const poster = createPoster({
    incomingUrl: settings.synology.incomingUrl,
    mode: settings.synology.mode,
    paceMs: settings.paceMs,
    timeoutMs: settings.postTimeoutMs,
    warn: options.log,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  return { claude, poster, childEnv };
}

/** Step 4: the queue, the conversations (their limits, the rolling summary) and the outbox, from the settings. */
function buildWork(
  settings: BridgeSettings,
  options: BridgeServiceOptions,
  parts: {
    journal: Awaited<ReturnType<typeof recoverJournal>>["journal"];
    claude: ClaudeProcesses;
    poster: Poster;
    childEnv: NodeJS.ProcessEnv;
    redact: (text: string) => string;
    now: () => Date;
  },
): BridgeWork {
  const { now, redact } = parts;
  return createBridgeWork({
    journal: parts.journal,
    outbox: {
      poster: parts.poster,
      now,
      deliveryHours: settings.deliveryHours,
      retryBaseMs: settings.retryBaseMs,
      retryMaxMs: settings.retryMaxMs,
      log: options.log,
    },
    conversation: {
      sessionsDir: sessionsDir(options.env),
      limits: {
        softLimitTokens: settings.softLimitTokens,
        hardLimitTokens: settings.hardLimitTokens,
        idleMinutes: settings.idleMinutes,
      },
      inputChunkChars: settings.inputChunkChars,
      windowTokens: settings.windowTokens,
      maxInputBytes: settings.maxInputBytes,
      runClaude: parts.claude.run,
      summarize: (session) =>
        makeRollingSummary(session, {
          config: options.config,
          env: parts.childEnv,
          now,
          ...(options.summaryClient === undefined ? {} : { client: options.summaryClient }),
        }),
      redact,
      now,
      warn: options.log,
    },
    concurrency: settings.concurrency,
    outputChunkChars: settings.outputChunkChars,
    workingNoticeSeconds: settings.workingNoticeSeconds,
    redact,
    now,
    log: options.log,
  });
}

/** Step 6, in order: no new messages, the work stopped (turns cut short after the grace), the journal closed, the
 *  lock let go. */
export async function stopBridge(parts: {
  http: { close(): Promise<void> };
  work: Pick<BridgeWork, "stop">;
  journal: { close(): Promise<void> };
  store: Pick<BridgeStore, "release">;
  claude: Pick<ClaudeProcesses, "killAll">;
  graceMs: number;
}): Promise<void> {
  await parts.http.close();
  await parts.work.stop(parts.graceMs, parts.claude.killAll);
  await parts.journal.close();
  await parts.store.release();
}
