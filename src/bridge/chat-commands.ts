// The chat commands (`/status`, `/new`, `/forget`), answered before the conversation: the work (bridge-work.ts)
// matches each message it runs against this table, and only a message that is no command goes to the conversation
// (conversation.ts, Claude). A command runs in its conversation's place in the queue like any message, runs no
// Claude turn and gets no "working on it" notice; what it needs (the session files, the queue as it stands) comes
// in as data, so no command reaches back into the work.
import type { ContextLimits } from "../core/bridge/context.ts";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { resetClaudeSession } from "../core/bridge/session.ts";
import { chatStatusText, type QueueInfo } from "../core/bridge/status.ts";
import { type ChatCommand, chatCommandOf } from "../core/bridge/webhook.ts";
import { deleteBridgeSession, readBridgeSession, updateBridgeSession } from "../store/bridge/session-store.ts";
import { type RollOverDeps, rollOver } from "./roll-over.ts";

export interface ChatCommandDeps extends RollOverDeps {
  sessionsDir: string;
  /** The window `/status` measures against, and the size past which a conversation rolls over. */
  windowTokens: number;
  limits: Pick<ContextLimits, "softLimitTokens">;
  /** The bridge's queue and outbox as the command starts (for `/status`). */
  queue: QueueInfo;
}

/** Answers one command for the message's conversation: the reply's text. */
export type ChatCommandHandler = (message: JournalMessage, deps: ChatCommandDeps) => Promise<string>;

/** Every command chatCommandOf knows (the type asks for each), and what it does. */
export const CHAT_COMMANDS: Readonly<Record<ChatCommand, ChatCommandHandler>> = {
  status: async (message, deps) => {
    const session = await readBridgeSession(deps.sessionsDir, message.key);
    return chatStatusText({
      session,
      windowTokens: deps.windowTokens,
      softLimitTokens: deps.limits.softLimitTokens,
      ...deps.queue,
    });
  },
  forget: async (message, deps) => {
    const dropped = await deleteBridgeSession(deps.sessionsDir, message.key);
    return dropped
      ? "Forgotten: this conversation's summary and history are gone; your next message starts afresh."
      : "There was nothing to forget: this conversation had no saved session.";
  },
  new: async (message, deps) => {
    const current = await readBridgeSession(deps.sessionsDir, message.key);
    if (current === null) return "Started fresh: your next message begins a new Claude session.";
    if (current.lastTurnFailed === true) {
      // The summary may be what made the turn fail: a clean start carries none of it.
      const fresh = {
        ...resetClaudeSession(current),
        summary: "",
        summarizedAt: null,
        history: [],
        lastTurnFailed: false,
      };
      await updateBridgeSession(deps.sessionsDir, message.key, () => fresh);
      return "Started a fresh Claude session without the earlier summary, since Claude could not answer the last message.";
    }
    const next = await rollOver(current, "new", deps);
    await updateBridgeSession(deps.sessionsDir, message.key, () => next.session);
    return (
      `Started a fresh Claude session; the summary of this conversation (${next.session.summary.length} characters) ` +
      "is kept and carried into it."
    );
  },
};

/**
 * The handler of a message that is a chat command (the command alone on the message); null for anything else. A
 * refused message is never a command: the conversation tells the person why it was refused.
 */
export function chatCommandFor(message: JournalMessage): ChatCommandHandler | null {
  if (message.refused !== undefined) return null;
  const command = chatCommandOf(message.text);
  return command === null ? null : CHAT_COMMANDS[command];
}
