// The bridge's journal of accepted work, pure: the records (a message accepted, its reply ready, one part of
// the reply settled, the reply's rest given up at its delivery deadline, the message done) and the replay that
// finds what a restarted bridge still owes: messages to run, replies whose remaining parts are to be posted (with
// the time they were first due, so a deadline survives a restart), and notices of given-up parts still to post.
// Order of acceptance is the order of replay.
import * as z from "zod/mini";

export const JournalMessageSchema = z.object({
  id: z.string(),
  at: z.string(),
  key: z.string(),
  userId: z.string(),
  username: z.string(),
  channelId: z.nullable(z.string()),
  channelName: z.nullable(z.string()),
  postId: z.nullable(z.string()),
  /** Redacted before it is written, like everything the bridge stores. */
  text: z.string(),
  /** The UTF-8 size of what the person sent; 0 when it was not read (a body over the HTTP cap). */
  bytes: z.int(),
  /** Set when the message cannot run: it gets a reply saying why, in its place in the conversation. */
  refused: z.optional(z.enum(["too-large", "invalid-utf8", "empty", "wrong-content-type"])),
});
export type JournalMessage = z.infer<typeof JournalMessageSchema>;

export const JournalRecordSchema = z.discriminatedUnion("t", [
  z.object({ t: z.literal("accept"), message: JournalMessageSchema }),
  /** The reply's chat messages, ready to post (the turn is in the session file already); `at`: when it was first
   *  due, the start of its delivery deadline (absent in journals written before the outbox: due at replay). */
  z.object({ t: z.literal("reply"), id: z.string(), parts: z.array(z.string()), at: z.optional(z.string()) }),
  /** Part `part` is settled: delivered, or skipped after the chat refused it and took the notice saying so. */
  z.object({ t: z.literal("posted"), id: z.string(), part: z.int() }),
  /** The reply's parts from `from` on were not delivered by the deadline: given up at `at`; a notice is owed. */
  z.object({ t: z.literal("gave-up"), id: z.string(), from: z.int(), parts: z.int(), at: z.string() }),
  z.object({ t: z.literal("done"), id: z.string() }),
  /** Post ids accepted lately (`<conversation key>#<post_id>`), carried over each rewrite of the journal, so a
   *  webhook the chat sends again after a restart is known even when its message was answered and dropped. */
  z.object({ t: z.literal("seen"), keys: z.array(z.string()) }),
]);
export type JournalRecord = z.infer<typeof JournalRecordSchema>;

export interface OpenWork {
  message: JournalMessage;
  /** Null until the reply was journaled: the message still has to run. */
  parts: string[] | null;
  /** Parts already settled (a reply resumes after the last of them). */
  posted: number;
  /** When the reply was first due (ISO): its delivery deadline counts from here. Null until it was journaled. */
  dueAt: string | null;
  /** Parts given up at the deadline, whose notice is still to be posted; null when none is owed. */
  gaveUp: { from: number; parts: number; at: string } | null;
}

/** What is still owed after these records, in order of acceptance (a reply fully posted counts as done). `replayedAt` dates a reply journaled without
 *  its `at` (an older journal). */
export function replayJournal(records: readonly JournalRecord[], replayedAt = new Date().toISOString()): OpenWork[] {
  const open = new Map<string, OpenWork>();
  for (const record of records) {
    switch (record.t) {
      case "accept":
        if (!open.has(record.message.id))
          open.set(record.message.id, { message: record.message, parts: null, posted: 0, dueAt: null, gaveUp: null });
        break;
      case "reply": {
        const work = open.get(record.id);
        if (work !== undefined) {
          work.parts = record.parts;
          work.dueAt = record.at ?? work.dueAt ?? replayedAt;
        }
        break;
      }
      case "gave-up": {
        const work = open.get(record.id);
        if (work !== undefined) {
          work.gaveUp = { from: record.from, parts: record.parts, at: record.at };
          work.posted = Math.max(work.posted, record.from + record.parts);
        }
        break;
      }
      case "posted": {
        const work = open.get(record.id);
        if (work !== undefined) work.posted = Math.max(work.posted, record.part + 1);
        break;
      }
      case "done":
        open.delete(record.id);
        break;
      case "seen":
        break;
    }
  }
  // A reply whose every part is settled and that owes no notice is finished, though its `done` was not written
  // (a full disk): nothing is left to post, so it is not owed (status does not count it, a restart skips it).
  return [...open.values()].filter(
    (work) => work.parts === null || work.posted < work.parts.length || work.gaveUp !== null,
  );
}

/** How many post ids the bridge remembers: Synology re-sends a webhook it thinks failed within minutes. */
export const SEEN_POST_KEYS = 2_000;

/** A message's post key (its conversation and Synology's post id), or null when the chat sent no post id. */
export function postKeyOf(message: Pick<JournalMessage, "key" | "postId">): string | null {
  return message.postId === null ? null : `${message.key}#${message.postId}`;
}

/** The post keys these records name (accepted messages and earlier `seen` records), oldest first, the newest
 *  SEEN_POST_KEYS of them. */
export function seenPostKeys(records: readonly JournalRecord[], max = SEEN_POST_KEYS): string[] {
  const keys = new Set<string>();
  const add = (key: string) => {
    keys.delete(key);
    keys.add(key);
  };
  for (const record of records) {
    if (record.t === "seen") for (const key of record.keys) add(key);
    else if (record.t === "accept") {
      const key = postKeyOf(record.message);
      if (key !== null) add(key);
    }
  }
  return [...keys].slice(-max);
}

/** The records that carry `open` forward on their own (the journal rewritten without finished work). */
export function recordsOf(open: readonly OpenWork[]): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const work of open) {
    records.push({ t: "accept", message: work.message });
    const id = work.message.id;
    if (work.parts !== null)
      records.push({ t: "reply", id, parts: work.parts, ...(work.dueAt === null ? {} : { at: work.dueAt }) });
    if (work.gaveUp !== null) records.push({ t: "gave-up", id, ...work.gaveUp });
    else if (work.posted > 0) records.push({ t: "posted", id, part: work.posted - 1 });
  }
  return records;
}
