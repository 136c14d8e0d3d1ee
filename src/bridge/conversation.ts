// Answers one accepted chat message that is no chat command (the work answers those first: chat-commands.ts), the
// product document's ContextManager: a refused message gets its notice; a prompt runs through Claude Code, in
// parts of one session when long, after a rollover to a new session seeded with the rolling summary when the real
// context is past the soft limit (never starting a turn past the hard limit; a long message is judged whole before
// part 1, and never continues in a session that lacks its earlier parts). The session file is written once the
// turn is done; the caller journals and posts the reply. A failure is told in words (ctx's own error messages),
// never by quoting what went to the command line (break 5), and marks the session, so `/new` then starts without
// the summary.
import { addUsage, type ContextLimits, decideTurn, pendingTokens } from "../core/bridge/context.ts";
import type { JournalMessage } from "../core/bridge/journal.ts";
import {
  aggregateAnswers,
  failureNotice,
  overflowNotice,
  type PromptPart,
  partialFailureNotice,
  planPromptParts,
  seedSystemPrompt,
  tooLargeNotice,
  tooLongForSessionNotice,
} from "../core/bridge/messages.ts";
import { appendHistory, historyEntry, newBridgeSession } from "../core/bridge/session.ts";
import { describeError, isCtxError } from "../errors.ts";
import { readBridgeSession, updateBridgeSession } from "../store/bridge/session-store.ts";
import type { ClaudeRunner } from "./claude-runner.ts";
import { type RollOverDeps, rollOver } from "./roll-over.ts";

export interface ConversationDeps extends RollOverDeps {
  sessionsDir: string;
  limits: ContextLimits;
  inputChunkChars: number;
  maxInputBytes: number;
  runClaude: ClaudeRunner;
  /** True once the bridge is stopping and has ended the running Claude turns. */
  halted?: () => boolean;
}

/** A turn ended by the bridge's own stop: nothing is written, the journal runs the message again on start. */
export class BridgeHalted extends Error {}

export interface Answer {
  /** The reply, as one text (the poster cuts it into chat messages). */
  text: string;
  /** For the log line. */
  parts: number;
  contextTokens: number | null;
  claudeMs: number;
  rolledOver: string | null;
  failed: boolean;
}

const REFUSALS = {
  "invalid-utf8": "Your message could not be read: it is not valid UTF-8 text, so it was not sent to Claude.",
  empty: "Your message was empty, so there was nothing to send to Claude.",
  "wrong-content-type":
    "Your message did not arrive as the form Synology Chat sends (application/x-www-form-urlencoded), so it was " +
    "not sent to Claude. Check the webhook's settings or the proxy in front of the bridge.",
} as const;

/** An answer that ran no Claude turn: a refusal, a chat command's reply (chat-commands.ts). */
export function plainAnswer(text: string): Answer {
  return { text, parts: 0, contextTokens: null, claudeMs: 0, rolledOver: null, failed: false };
}

export async function answerMessage(message: JournalMessage, deps: ConversationDeps): Promise<Answer> {
  if (message.refused === "too-large") return plainAnswer(tooLargeNotice(message.bytes, deps.maxInputBytes));
  if (message.refused !== undefined) return plainAnswer(REFUSALS[message.refused]);
  if (message.text.trim() === "") return plainAnswer(REFUSALS.empty);
  return runPrompt(message, deps);
}

async function runPrompt(message: JournalMessage, deps: ConversationDeps): Promise<Answer> {
  const parts = planPromptParts(message.text, deps.inputChunkChars);
  const prompts = parts.map((part) => part.prompt);
  const hardLimit = deps.limits.hardLimitTokens;
  const messageTokens = pendingTokens(prompts);
  // Even a fresh session could not take it all: it would be cut short or lose its first parts, so it is not sent.
  if (messageTokens > hardLimit)
    return plainAnswer(tooLongForSessionNotice(message.text.length, messageTokens, hardLimit));
  const now = deps.now();
  let session =
    (await readBridgeSession(deps.sessionsDir, message.key)) ??
    newBridgeSession(
      {
        key: message.key,
        userId: message.userId,
        username: message.username,
        channelId: message.channelId,
        channelName: message.channelName,
      },
      now,
    );
  if (session.lastMessageId === message.id) {
    deps.warn(`bridge: message ${message.id} ran before a stop cut it short of its reply; running it again`);
  }
  const answers: string[] = [];
  let rolledOver: string | null = null;
  let claudeMs = 0;
  let failure: string | null = null;
  let overflow: string | null = null;
  // True when part 1 went to a session with nothing older in it: past the hard limit there, the message itself
  // does not fit one session, and sending it again would end the same way.
  let beganHere = false;
  let index = 0;
  while (index < parts.length) {
    const part = parts[index] as PromptPart;
    // Before part 1 every part counts (and the replies between them); before a later part, the ones still to come.
    const decision = decideTurn(session, prompts.slice(index), deps.limits, deps.now(), index > 0);
    if (decision.action === "summarize" && index > 0) {
      const reached = session.contextTokens;
      if (beganHere) {
        overflow = overflowNotice(index, parts.length, reached, hardLimit);
        deps.warn(
          `bridge: message ${message.id} did not fit in one Claude session (${reached} tokens after part ${index} ` +
            `of ${parts.length}); parts ${index + 1}-${parts.length} were not sent`,
        );
        break;
      }
      // The real usage after a part went far past the estimate (tool calls, say). The message starts again from
      // part 1 in the new session rather than going on there: parts sent again as turns are where Claude expects
      // them, in order, part 1 carrying the "answer after part N" instruction, whatever their size; a seed holding
      // the parts already sent would be a system prompt of up to a whole window, sent as one command-line
      // argument (Linux caps one at 128 KiB) on every turn. The summary made here loses nothing of this message:
      // the history it folds ends before it, and the message goes whole to the new session and into the history
      // once answered. The old session's acknowledgements are dropped, so the reply has each part's once.
      deps.warn(
        `bridge: message ${message.id} took its Claude session to ${reached} tokens after part ${index} of ` +
          `${parts.length}, too many for the rest under the hard limit; sending the message again from part 1 ` +
          "in a new session",
      );
      session = (await rollOver(session, decision.reason, deps)).session;
      rolledOver = decision.reason;
      answers.length = 0;
      index = 0;
      continue;
    }
    if (decision.action === "summarize") {
      session = (await rollOver(session, decision.reason, deps)).session;
      rolledOver = decision.reason;
    }
    if (index === 0) beganHere = session.claudeSessionId === null;
    if (session.claudeSessionId === null) {
      session = { ...session, seed: session.summary === "" ? null : seedSystemPrompt(session.summary) };
    }
    try {
      const answer = await deps.runClaude({
        prompt: part.prompt,
        resume: session.claudeSessionId,
        appendSystemPrompt: session.seed,
      });
      claudeMs += answer.durationMs;
      const at = deps.now().toISOString();
      session = {
        ...session,
        claudeSessionId: answer.sessionId,
        claudeSessionStartedAt: session.claudeSessionId === answer.sessionId ? session.claudeSessionStartedAt : at,
        contextTokens: answer.contextTokens,
        usage: addUsage(session.usage, answer.usage),
        turns: session.turns + 1,
      };
      answers.push(answer.text);
    } catch (error) {
      if (deps.halted?.() === true) throw new BridgeHalted("stopped mid-turn");
      failure = deps.redact(failureText(error, deps));
      // The cause in the log too (the FAILED summary line does not carry it): one line, no message text.
      deps.warn(`bridge: message ${message.id}: the turn for part ${index + 1} of ${parts.length} failed: ${failure}`);
      break;
    }
    index += 1;
  }
  let text = aggregateAnswers(answers);
  if (failure !== null) {
    text =
      answers.length === 0
        ? failureNotice(failure)
        : `${text}\n\n${partialFailureNotice(answers.length, parts.length, failure)}`;
  }
  if (overflow !== null) text = text === "" ? overflow : `${text}\n\n${overflow}`;
  const finished = deps.now();
  session = appendHistory(
    {
      ...session,
      messages: session.messages + 1,
      lastActiveAt: finished.toISOString(),
      lastMessageId: message.id,
      lastTurnFailed: failure !== null,
    },
    [historyEntry("user", deps.redact(message.text), now), historyEntry("assistant", deps.redact(text), finished)],
  );
  const stored = session;
  await updateBridgeSession(deps.sessionsDir, message.key, () => stored);
  return {
    text,
    parts: parts.length,
    contextTokens: answers.length > 0 ? session.contextTokens : null,
    claudeMs,
    rolledOver,
    failed: failure !== null || overflow !== null,
  };
}

/**
 * What the person is told about a failed turn: ctx's own error messages are written for people; anything else
 * (a Node error, whose message may quote an argument) is named by its code, its detail logged.
 */
function failureText(error: unknown, deps: ConversationDeps): string {
  if (isCtxError(error)) return describeError(error);
  deps.warn(`bridge: a turn failed: ${deps.redact(describeError(error)).slice(0, 300)}`);
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return `an internal error (${typeof code === "string" ? code : error instanceof Error ? error.name : "unknown"})`;
}
