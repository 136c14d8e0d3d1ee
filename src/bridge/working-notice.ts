// The "working on it" notice: a turn that runs longer than `bridge.workingNoticeSeconds` gets one short chat
// message, so the person knows the bridge has their message. Only prompts get it (a chat command or a refusal is
// answered at once), at most once per message, and never after the reply: stopping the notice waits for a notice
// already on its way, so the reply is posted behind it; a notice not yet due is simply dropped.
import type { JournalMessage } from "../core/bridge/journal.ts";
import { chatCommandOf } from "../core/bridge/webhook.ts";
import { describeError } from "../errors.ts";

export const WORKING_NOTICE_TEXT = "⏳ Working on it…";

export interface WorkingNoticeOptions {
  /** Seconds before the notice goes out; 0 = never. */
  afterSeconds: number;
  /** Posts the notice to the person (one try is enough: it is a courtesy, the reply is what counts). */
  post: (text: string) => Promise<unknown>;
  warn: (line: string) => void;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** True for a message that goes to Claude (not a refusal, an empty message or a chat command). */
export function wantsWorkingNotice(message: JournalMessage): boolean {
  return message.refused === undefined && message.text.trim() !== "" && chatCommandOf(message.text) === null;
}

/**
 * Starts the clock for one message's notice. The returned function stops it: called when the answer is ready,
 * before the reply is posted; it resolves at once, or once a notice already being posted has arrived.
 */
export function startWorkingNotice(options: WorkingNoticeOptions): () => Promise<void> {
  if (options.afterSeconds <= 0) return async () => {};
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as NodeJS.Timeout));
  let stopped = false;
  let posting: Promise<void> | null = null;
  const timer = setTimer(() => {
    if (stopped) return;
    posting = options.post(WORKING_NOTICE_TEXT).then(
      () => undefined,
      (error: unknown) => options.warn(`bridge: the working notice was not posted: ${describeError(error)}`),
    );
  }, options.afterSeconds * 1_000);
  return async () => {
    stopped = true;
    clearTimer(timer);
    if (posting !== null) await posting;
  };
}
