import type { JournalMessage } from "../core/bridge/journal.ts";

export interface AcceptedMessage {
  /** What the journal keeps (text redacted). */
  journaled: JournalMessage;
  /** What Claude gets: the text as the person sent it. */
  live: JournalMessage;
}
