// The bridge's work: every message it owes (accepted now, or recovered from the journal), the queue that runs
// them (one at a time per conversation), and what running one means: answer it (a chat command from its table,
// ./chat-commands.ts; anything else through ./conversation.ts, with the "working on it" notice), journal its
// reply and deliver it through the outbox (./outbox.ts), then mark it done. `accept` is what the HTTP step calls
// once a message is parsed: the message is owed before its record is written, and queued once the record is on
// disk.
import type { JournalMessage, OpenWork } from "../core/bridge/journal.ts";
import { pendingDelivery } from "../core/bridge/outbox.ts";
import { replyMessages } from "../core/bridge/payload.ts";
import type { QueueInfo } from "../core/bridge/status.ts";
import { describeError } from "../errors.ts";
import type { Journal } from "../store/bridge/journal-store.ts";
import type { AcceptedMessage } from "./accepted-message.ts";
import { type ChatCommandDeps, chatCommandFor } from "./chat-commands.ts";
import { type Answer, answerMessage, BridgeHalted, type ConversationDeps, plainAnswer } from "./conversation.ts";
import { type Delivery, deliverRound, journaledState, type OutboxDeps } from "./outbox.ts";
import type { Poster } from "./poster.ts";
import { createWorkQueue, type RetryLater, type WorkQueue } from "./queue.ts";
import { startWorkingNotice, wantsWorkingNotice } from "./working-notice.ts";

interface Work extends Delivery {
  key: string;
  /** The text as sent, for a message accepted by this process; the journal's redacted text after a restart. */
  live: JournalMessage;
  receivedAt: number;
  /** The log line's middle, once the reply is ready. */
  summary: string;
}

export interface BridgeWorkDeps {
  journal: Journal;
  outbox: Omit<OutboxDeps, "journal">;
  /** Everything answerMessage and the chat commands need but the bridge's state, which this module knows. */
  conversation: Omit<ConversationDeps, "halted"> & Omit<ChatCommandDeps, "queue">;
  concurrency: number;
  outputChunkChars: number;
  workingNoticeSeconds: number;
  redact: (text: string) => string;
  now: () => Date;
  log: (line: string) => void;
}

export interface BridgeWork {
  /** Journals an accepted message and queues it; rejects (nothing queued) when the journal could not keep it. */
  accept(message: AcceptedMessage): Promise<void>;
  /** Queues work the journal still owed at start, in its order. */
  resume(open: readonly OpenWork[]): void;
  queue: Pick<WorkQueue<Work>, "waiting" | "running">;
  /** Reply parts waiting for the chat, and since when the oldest is due. */
  pending(): ReturnType<typeof pendingDelivery>;
  /**
   * No new work; running turns get `graceMs`, then their Claude processes are killed (`killAll`) and the
   * journal keeps them for the next start. Resolves with what was cut short.
   */
  stop(graceMs: number, killAll: () => void): Promise<{ cutShort: number }>;
}

export function createBridgeWork(deps: BridgeWorkDeps): BridgeWork {
  const { journal, log, now } = deps;
  const owed = new Map<string, Work>();
  /**
   * The chat took a post: every conversation waiting on the chat goes now, its backoff started again (issue 31: after
   * an outage each one otherwise slept out its own doubled wait, up to retryMaxMs, while the chat answered others).
   * Only those: a wait the chat refused or rate-limited keeps its backoff (the outbox resets it on its own success).
   */
  const chatAnswered = () => {
    queue.wake((work) => {
      work.failures = 0;
    });
  };
  const poster = wakingPoster(deps.outbox.poster, chatAnswered);
  const outbox: OutboxDeps = { ...deps.outbox, poster, journal };
  let halted = false;

  const conversation: ConversationDeps = { ...deps.conversation, halted: () => halted };
  /** The queue and the outbox as `/status` shows them to the conversation `key`. */
  const queueInfo = (key: string): QueueInfo => {
    const pending = pendingDelivery(owed.values());
    return {
      queuedHere: queue.waiting(key),
      queuedTotal: queue.waiting(),
      running: queue.running(),
      pendingParts: pending.parts,
      oldestPendingMs: pending.oldestDueAt === null ? null : now().getTime() - Date.parse(pending.oldestDueAt),
    };
  };

  /** A chat command is answered first, from the table (chat-commands.ts); anything else goes to the conversation. */
  function respond(work: Work): Promise<Answer> {
    const command = chatCommandFor(work.live);
    if (command !== null)
      return command(work.live, { ...deps.conversation, queue: queueInfo(work.key) }).then(plainAnswer);
    const stopNotice = startWorkingNotice({
      afterSeconds: wantsWorkingNotice(work.live) ? deps.workingNoticeSeconds : 0,
      post: (text) => poster.postText(work.message.userId, text, "working notice"),
      warn: log,
    });
    return answerMessage(work.live, conversation).finally(stopNotice);
  }

  /** The message answered (or the reason it could not be, in words); null when the bridge is stopping. */
  async function answer(work: Work): Promise<Answer | null> {
    try {
      return await respond(work);
    } catch (error) {
      if (error instanceof BridgeHalted) return null; // stopping: the journal still owes it
      // The session store failed (damaged file, disk full): the person hears about it, the bridge goes on.
      const detail = deps.redact(describeError(error));
      log(`bridge: ${shortKey(work.key)} failed: ${detail}`);
      return {
        text: `⚠️ The bridge could not handle this message: ${detail}`,
        parts: 0,
        contextTokens: null,
        claudeMs: 0,
        rolledOver: null,
        failed: true,
      };
    }
  }

  async function runWork(work: Work): Promise<RetryLater | undefined> {
    const id = work.message.id;
    if (work.parts === null) {
      const answered = await answer(work);
      if (answered === null) return undefined;
      const parts = replyMessages(answered.text, deps.outputChunkChars);
      work.sending = parts;
      // Due from now: the delivery deadline counts from here. Recorded before the outbox journals it, so a
      // compaction running meanwhile keeps it (see Journal.compact).
      work.dueAt = now().toISOString();
      work.parts = parts.map(deps.redact);
      work.summary =
        `in=${work.message.bytes}B parts=${answered.parts} out=${answered.text.length}c/${parts.length}msg ` +
        `tokens=${answered.contextTokens ?? "-"} claude=${Math.round(answered.claudeMs)}ms` +
        (answered.rolledOver === null ? "" : ` summarised(${answered.rolledOver})`) +
        (answered.failed ? " FAILED" : "");
    }
    // Posts what is left; a part the chat does not take sends the conversation back to the queue to wait.
    const waiting = await deliverRound(work, outbox);
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
    concurrency: deps.concurrency,
    run: runWork,
    onError: (work, error) => log(`bridge: ${shortKey(work.key)} stopped: ${deps.redact(describeError(error))}`),
  });

  return {
    async accept({ journaled, live }) {
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
    resume(open) {
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
    },
    queue,
    pending: () => pendingDelivery(owed.values()),
    async stop(graceMs, killAll) {
      const cutShort = await queue.stop(graceMs);
      halted = true;
      if (cutShort > 0) {
        log(
          `bridge: stopping with ${cutShort} conversation(s) mid-turn; the journal runs them again on the next start`,
        );
        killAll();
      }
      const pending = pendingDelivery(owed.values());
      if (pending.parts > 0) log(`bridge: ${pending.parts} reply part(s) wait for the chat; the next start posts them`);
      return { cutShort };
    },
  };
}

/** `poster`, calling `answered` after each post the chat took (a reply part as soon as it is in, before the next). */
function wakingPoster(poster: Poster, answered: () => void): Poster {
  return {
    postReply: (userId, parts, from, onPosted) =>
      poster.postReply(userId, parts, from, async (part) => {
        answered();
        await onPosted(part);
      }),
    postText: async (userId, text, label) => {
      const failure = await poster.postText(userId, text, label);
      if (failure === null) answered();
      return failure;
    },
  };
}

/** A conversation's name in the log: a hash, never the user or channel id. */
export function shortKey(key: string): string {
  let hash = 0;
  for (let i = 0; i < key.length; i += 1) hash = (hash * 31 + key.charCodeAt(i)) >>> 0;
  return `s-${hash.toString(16).padStart(8, "0")}`;
}
