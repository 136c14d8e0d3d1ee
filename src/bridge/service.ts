// `ctx bridge synology` as a service: one bridge per CTX_HOME (it holds the bridge folder's lock while it runs),
// the journal replayed on start (messages accepted before a crash run, half-posted replies finish), the HTTP
// server, the queue, the reply outbox (./outbox.ts: a reply the chat does not take waits, its conversation behind
// it), and a clean stop: no new work, running turns get a grace period, then their process groups are killed and
// the journal keeps them, and every reply still waiting for the chat, for the next start.
import { readdir, realpath } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { claudeConfigDir, claudeProjectDirName } from "../config/claude-paths.ts";
import type { Config } from "../config/schema.ts";
import { bridgeChildEnv } from "../core/bridge/child-env.ts";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { pendingDelivery } from "../core/bridge/outbox.ts";
import { replyMessages } from "../core/bridge/payload.ts";
import { redactText } from "../core/redact/redact.ts";
import { CtxError, describeError, isCtxError } from "../errors.ts";
import { type JournalWrite, openJournal } from "../store/bridge/journal-store.ts";
import { sessionsDir } from "../store/bridge/session-store.ts";
import { ensurePrivateDir } from "../store/files/atomic-write.ts";
import { withLock } from "../store/files/lock.ts";
import { requireUserFolder } from "../store/files/user-file.ts";
import { createWebhookApp } from "./app.ts";
import { type ClaudeProcesses, createClaudeRunner } from "./claude-runner.ts";
import { answerMessage, BridgeHalted } from "./conversation.ts";
import { type Delivery, deliverRound, journaledState } from "./outbox.ts";
import { createPoster } from "./poster.ts";
import { createWorkQueue, type RetryLater } from "./queue.ts";
import { resolveBridgeSettings } from "./settings.ts";
import { makeRollingSummary, type RollingSummaryDeps } from "./summarize.ts";
import { startWorkingNotice, wantsWorkingNotice } from "./working-notice.ts";

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

interface Work extends Delivery {
  key: string;
  /** The text as sent, for a message accepted by this process; the journal's redacted text after a restart. */
  live: JournalMessage;
  receivedAt: number;
  /** The log line's middle, once the reply is ready. */
  summary: string;
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
  await ensurePrivateDir(settings.dir);
  // The default workdir is ctx's own (0700); one the person configured is theirs: it must exist, its mode is kept.
  if (options.config.bridge.claude.workdir.trim() === "") await ensurePrivateDir(settings.workdir);
  else await requireUserFolder(settings.workdir);
  // Claude Code names its transcript folder after the resolved path (a symlinked workdir resolves elsewhere).
  settings.workdir = await realpath(settings.workdir);

  // One bridge per CTX_HOME: the lock is held for the bridge's life (a killed bridge's lock is taken over).
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let acquired: () => void = () => {};
  const gotLock = new Promise<void>((resolve) => (acquired = resolve));
  const held = withLock(
    join(settings.dir, "bridge"),
    async () => {
      acquired();
      await released;
    },
    { timeoutMs: 2_000 },
  );
  try {
    await Promise.race([gotLock, held]);
  } catch (error) {
    if (isCtxError(error) && error.code === "LOCK_TIMEOUT") {
      throw new CtxError("USAGE", `another ctx bridge is running with ${settings.dir}`, {
        hint: "stop it first (systemctl --user stop ctx-bridge), or give this one its own CTX_HOME",
        cause: error,
      });
    }
    throw error;
  }

  // A journal that cannot be opened (a pipe, folder or link at its path) stops the start with the lock let go.
  const { journal, open, skipped } = await openJournal(
    settings.dir,
    options.journalWrite === undefined ? {} : { write: options.journalWrite },
  ).catch(async (error: unknown) => {
    release();
    await held.catch(() => undefined);
    throw error;
  });
  if (skipped > 0) log(`bridge: skipped ${skipped} damaged journal line(s) (a crash's last write)`);
  const sessions = sessionsDir(options.env);
  // Every child the bridge starts (turns, the rolling summary) gets the operator's environment without the
  // bridge's own settings and secrets: Claude's tools, hooks and MCP servers inherit it.
  const childEnv = bridgeChildEnv(options.env, {
    token: settings.synology.token,
    incomingUrl: settings.synology.incomingUrl,
  });
  const claude: ClaudeProcesses =
    options.claude ??
    createClaudeRunner({
      command: settings.claude.command,
      args: settings.claude.args,
      cwd: settings.workdir,
      timeoutMs: settings.claude.timeoutMs,
      env: childEnv,
      transcriptDir: join(claudeConfigDir(options.env), "projects", claudeProjectDirName(settings.workdir)),
      warn: (line) => log(redact(line)),
    });
  const posterOptions = {
    incomingUrl: settings.synology.incomingUrl,
    mode: settings.synology.mode,
    paceMs: settings.paceMs,
    timeoutMs: settings.postTimeoutMs,
    warn: log,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  // One try per post (the "working on it" notice included): the outbox retries replies, never a courtesy message.
  const poster = createPoster(posterOptions);
  const owed = new Map<string, Work>();
  const outboxDeps = {
    journal,
    poster,
    now,
    deliveryHours: settings.deliveryHours,
    retryBaseMs: settings.retryBaseMs,
    retryMaxMs: settings.retryMaxMs,
    log,
  };

  const conversationDeps = {
    sessionsDir: sessions,
    limits: {
      softLimitTokens: settings.softLimitTokens,
      hardLimitTokens: settings.hardLimitTokens,
      idleMinutes: settings.idleMinutes,
    },
    inputChunkChars: settings.inputChunkChars,
    windowTokens: settings.windowTokens,
    maxInputBytes: settings.maxInputBytes,
    runClaude: claude.run,
    summarize: (session: Parameters<typeof makeRollingSummary>[0]) =>
      makeRollingSummary(session, {
        config: options.config,
        env: childEnv,
        now,
        ...(options.summaryClient === undefined ? {} : { client: options.summaryClient }),
      }),
    redact,
    now,
    warn: log,
    halted: () => halted,
    queueInfo: (key: string) => {
      const pending = pendingDelivery(owed.values());
      return {
        queuedHere: queue.waiting(key),
        queuedTotal: queue.waiting(),
        running: queue.running(),
        pendingParts: pending.parts,
        oldestPendingMs: pending.oldestDueAt === null ? null : now().getTime() - Date.parse(pending.oldestDueAt),
      };
    },
  };

  let halted = false;

  async function runWork(work: Work): Promise<RetryLater | undefined> {
    const id = work.message.id;
    if (work.parts === null) {
      let answer: Awaited<ReturnType<typeof answerMessage>>;
      const stopNotice = startWorkingNotice({
        afterSeconds: wantsWorkingNotice(work.live) ? settings.workingNoticeSeconds : 0,
        post: (text) => poster.postText(work.message.userId, text, "working notice"),
        warn: log,
      });
      try {
        answer = await answerMessage(work.live, conversationDeps).finally(stopNotice);
      } catch (error) {
        if (error instanceof BridgeHalted) return; // stopping: the journal still owes it
        // The session store failed (damaged file, disk full): the person hears about it, the bridge goes on.
        const detail = redact(describeError(error));
        log(`bridge: ${shortKey(work.key)} failed: ${detail}`);
        answer = {
          text: `⚠️ The bridge could not handle this message: ${detail}`,
          parts: 0,
          contextTokens: null,
          claudeMs: 0,
          rolledOver: null,
          failed: true,
        };
      }
      const parts = replyMessages(answer.text, settings.outputChunkChars);
      work.sending = parts;
      // Due from now: the delivery deadline counts from here. Recorded before the outbox journals it, so a
      // compaction running meanwhile keeps it (see Journal.compact).
      work.dueAt = now().toISOString();
      work.parts = parts.map(redact);
      work.summary =
        `in=${work.message.bytes}B parts=${answer.parts} out=${answer.text.length}c/${parts.length}msg ` +
        `tokens=${answer.contextTokens ?? "-"} claude=${Math.round(answer.claudeMs)}ms` +
        (answer.rolledOver === null ? "" : ` summarised(${answer.rolledOver})`) +
        (answer.failed ? " FAILED" : "");
    }
    // Posts what is left; a part the chat does not take sends the conversation back to the queue to wait.
    const waiting = await deliverRound(work, outboxDeps);
    if (waiting !== null) return waiting;
    owed.delete(id);
    // Every part is settled in the journal already: a lost `done` only makes the next start find nothing to post.
    await journal
      .append({ t: "done", id })
      .catch((error: unknown) => log(`bridge: message ${id}: done not journaled (${describeError(error)})`));
    const given = work.gaveUp === null ? "" : ` GAVE-UP=${work.gaveUp.parts}`;
    log(
      `bridge: ${shortKey(work.key)} ${work.message.username} ${work.summary} posted=${work.posted - (work.gaveUp?.parts ?? 0)}` +
        `${given} time=${Math.round(performance.now() - work.receivedAt)}ms`,
    );
    await journal.compact(() => [...owed.values()], 1_000);
    return undefined;
  }

  const queue = createWorkQueue<Work>({
    concurrency: settings.concurrency,
    run: runWork,
    onError: (work, error) => log(`bridge: ${shortKey(work.key)} stopped: ${redact(describeError(error))}`),
  });
  if (open.length > 0) log(`bridge: resuming ${open.length} message(s) accepted before the last stop`);
  for (const work of open) {
    const resumed: Work = {
      ...work,
      key: work.message.key,
      live: work.message,
      receivedAt: performance.now(),
      sending: null,
      journaled: journaledState(work),
      failures: 0,
      lastFailure: null,
      summary: work.parts === null ? "" : `resumed: posting parts ${work.posted + 1}-${work.parts.length}`,
    };
    owed.set(work.message.id, resumed);
    queue.push(resumed);
  }

  const app = createWebhookApp({
    token: settings.synology.token,
    maxInputBytes: settings.maxInputBytes,
    version: options.version,
    redact,
    now,
    warn: log,
    accept: async ({ journaled, live }) => {
      const work: Work = {
        message: journaled,
        live,
        key: journaled.key,
        parts: null,
        posted: 0,
        dueAt: null,
        gaveUp: null,
        sending: null,
        journaled: { reply: false, posted: 0, gaveUp: false },
        failures: 0,
        lastFailure: null,
        receivedAt: performance.now(),
        summary: "",
      };
      // Owed before its accept record is written, so a compaction running meanwhile keeps it.
      owed.set(journaled.id, work);
      try {
        await journal.append({ t: "accept", message: journaled });
      } catch (error) {
        owed.delete(journaled.id);
        throw error;
      }
      queue.push(work);
    },
    health: async () => ({
      queued: queue.waiting(),
      running: queue.running(),
      sessions: await readdir(sessions).then(
        (names) => names.filter((name) => name.endsWith(".ctx")).length,
        () => 0,
      ),
    }),
  });

  const server = serve({ fetch: app.fetch, hostname: settings.host, port: settings.port });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
  } catch (error) {
    await journal.close();
    release();
    await held.catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    throw new CtxError(
      "USAGE",
      `cannot listen on ${settings.host}:${settings.port} (${code ?? describeError(error)})`,
      {
        hint: code === "EADDRINUSE" ? "another program uses that port: pick one with --port" : "check bridge.host",
        cause: error,
      },
    );
  }
  const address = server.address() as AddressInfo;
  log(
    `bridge: listening on http://${settings.host}:${address.port}/webhook (Claude: ${settings.claude.command} in ${settings.workdir}, ${settings.concurrency} at a time)`,
  );

  let stopping: Promise<void> | null = null;
  let finished: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (finished = resolve));
  const stop = () => {
    stopping ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      const left = await queue.stop(settings.stopGraceMs);
      halted = true;
      if (left > 0) {
        log(`bridge: stopping with ${left} conversation(s) mid-turn; the journal runs them again on the next start`);
        claude.killAll();
      }
      const pending = pendingDelivery(owed.values());
      if (pending.parts > 0) log(`bridge: ${pending.parts} reply part(s) wait for the chat; the next start posts them`);
      await journal.close();
      release();
      await held.catch(() => undefined);
      finished();
    })();
    return stopping;
  };
  return { url: `http://${settings.host}:${address.port}`, port: address.port, stopped, stop };
}

function shortKey(key: string): string {
  let hash = 0;
  for (let i = 0; i < key.length; i += 1) hash = (hash * 31 + key.charCodeAt(i)) >>> 0;
  return `s-${hash.toString(16).padStart(8, "0")}`;
}
