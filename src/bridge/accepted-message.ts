// One message the webhook accepted, as the HTTP face (app.ts) hands it to the work (bridge-work.ts): the copy the
// journal keeps and the one Claude gets. Plain data in a module of its own, so the work never imports the Hono app.
import type { JournalMessage } from "../core/bridge/journal.ts";

export interface AcceptedMessage {
  /** What the journal keeps (text redacted). */
  journaled: JournalMessage;
  /** What Claude gets: the text as the person sent it. */
  live: JournalMessage;
}
