// The reply outbox: one delivery round for a message whose reply is ready. A round first writes whatever the
// journal is missing of this reply (its parts, a settled part, a give-up), and posts nothing more until it has;
// then posts the parts left, in order, one try each. A part that fails past the delivery deadline is given up
// with the rest of its reply; the person is told as soon as the chat takes a post again.
// A part the chat did not take makes the round answer "retry later" (the queue gives the conversation's slot up
// and keeps its later messages behind it): waits double from `retryBaseMs` up to `retryMaxMs`, and the deadline is
// `deliveryHours` after the reply was first due, counted from the journal, so it survives restarts. A wait for the
// chat (down or unreachable; not one that refused or rate-limited the post) is cut short when the chat takes any
// post (bridge-work.ts wakes the queue and restarts those backoffs).
// A part the chat refuses outright (a 4xx, a Synology error) is probed: a short notice saying so is posted in its
// place; if the chat takes that, the part was the problem and is skipped; if not, the chat (or the bridge's URL or
// token) is, and the part waits like any other.
import type { OpenWork } from "../core/bridge/journal.ts";
import { deliveryDeadline, gaveUpNoticeText, refusedPartText } from "../core/bridge/outbox.ts";
import { retryDelayMs } from "../core/bridge/payload.ts";
import { describeError } from "../errors.ts";
import type { Journal } from "../store/bridge/journal-store.ts";
import type { Poster, PostFailure } from "./poster.ts";
import type { RetryLater } from "./queue.ts";

export interface Delivery extends OpenWork {
  /** The reply as posted: as Claude wrote it in the process that ran the turn; the journal's (redacted) parts
   *  after a restart. */
  sending: readonly string[] | null;
  /** What the journal holds of this reply's progress. */
  journaled: { reply: boolean; posted: number; gaveUp: boolean };
  /** Failed tries in a row (the backoff's exponent). In memory: a restarted bridge tries at once. */
  failures: number;
  /** The last failure's detail, for the give-up line. */
  lastFailure: string | null;
}

export interface OutboxDeps {
  journal: Pick<Journal, "append">;
  poster: Poster;
  now: () => Date;
  deliveryHours: number;
  retryBaseMs: number;
  retryMaxMs: number;
  log: (line: string) => void;
}

/** The journal's view of work read back from it (everything in it is journaled by definition). */
export function journaledState(work: OpenWork): Delivery["journaled"] {
  return { reply: work.parts !== null, posted: work.posted, gaveUp: work.gaveUp !== null };
}

/** One round: null once every part is settled (delivered, skipped or given up and its notice posted). */
export async function deliverRound(work: Delivery, deps: OutboxDeps): Promise<RetryLater | null> {
  const id = work.message.id;
  const parts = work.parts ?? [];
  const sending = work.sending ?? parts;
  const label = `message ${id}`;
  const retry = (failure: PostFailure | null, why: string, forChat = false): RetryLater => {
    work.failures += 1;
    let wait = retryDelayMs(work.failures, deps.retryBaseMs, failure?.retryAfterMs ?? null, deps.retryMaxMs);
    // A reply waiting for the chat is tried once more at its deadline, then given up on time.
    if (work.gaveUp === null && work.dueAt !== null) {
      wait = Math.min(wait, Math.max(0, deliveryDeadline(work.dueAt, deps.deliveryHours) - deps.now().getTime()));
    }
    deps.log(`bridge: ${label}: ${why}; next try in ${wait} ms`);
    // A wait for the chat ends as soon as the chat takes another post (queue.ts wake); one for the journal does not,
    // nor one the chat refused (it answered: taking another conversation's post says nothing about this one) or
    // rate-limited (its own backoff must grow).
    const chatDown = failure !== null && !failure.refused && !failure.rateLimited;
    return { retryInMs: wait, forChat: chatDown || forChat };
  };

  try {
    await catchUpJournal(work, deps.journal);
  } catch (error) {
    return retry(
      null,
      `the journal could not be written (${describeError(error)}); nothing more is posted until it can`,
    );
  }

  if (work.gaveUp !== null) {
    const notice = gaveUpNoticeText(work.gaveUp.parts, deps.deliveryHours, work.message.at);
    const failure = await deps.poster.postText(work.message.userId, notice, `${label}: give-up notice`);
    if (failure === null) return null;
    // The notice gets a deadline of its own: a chat gone for good does not hold the conversation for ever.
    if (deps.now().getTime() >= deliveryDeadline(work.gaveUp.at, deps.deliveryHours)) {
      deps.log(`bridge: ${label}: the give-up notice was not delivered within ${deps.deliveryHours} h either; dropped`);
      return null;
    }
    work.lastFailure = failure.detail;
    return retry(failure, `give-up notice waits (${failure.detail})`);
  }

  while (work.posted < parts.length) {
    let report: Awaited<ReturnType<Poster["postReply"]>>;
    try {
      report = await deps.poster.postReply(work.message.userId, sending, work.posted, async (part) => {
        work.posted = part + 1;
        work.failures = 0;
        await catchUpJournal(work, deps.journal);
      });
    } catch (error) {
      return retry(
        null,
        `the journal could not record a posted part (${describeError(error)}); nothing more is posted until it can`,
      );
    }
    if (report.failed === null) break;
    const { part, failure } = report.failed;
    work.lastFailure = failure.detail;
    const which = `part ${part + 1}/${parts.length}`;
    if (failure.refused) {
      const probe = await deps.poster.postText(
        work.message.userId,
        refusedPartText(part, parts.length, failure.detail),
        `${label}: notice for refused ${which}`,
      );
      if (probe === null) {
        deps.log(`bridge: ${label}: ${which} refused by the chat (${failure.detail}); skipped, the person was told`);
        work.posted = part + 1;
        work.failures = 0;
        try {
          await catchUpJournal(work, deps.journal);
        } catch (error) {
          return retry(null, `the journal could not record a skipped part (${describeError(error)})`);
        }
        continue;
      }
      // The chat takes nothing: its address or token, or the chat itself, is the problem, not this part.
      if (pastDeadline(work, deps)) return giveUp(work, deps, retry);
      return retry(probe, `${which} refused (${failure.detail}) and so was a notice (${probe.detail}): it waits`);
    }
    if (pastDeadline(work, deps)) return giveUp(work, deps, retry);
    return retry(failure, `${which} waits in the outbox (${failure.detail})`);
  }
  return null;
}

function pastDeadline(work: Delivery, deps: OutboxDeps): boolean {
  return work.dueAt !== null && deps.now().getTime() >= deliveryDeadline(work.dueAt, deps.deliveryHours);
}

/** The reply's parts from the one that just failed on are given up; the notice goes out on a later round. */
async function giveUp(
  work: Delivery,
  deps: OutboxDeps,
  retry: (failure: PostFailure | null, why: string, forChat?: boolean) => RetryLater,
): Promise<RetryLater> {
  const total = work.parts?.length ?? 0;
  const given = { from: work.posted, parts: total - work.posted, at: deps.now().toISOString() };
  work.gaveUp = given;
  work.posted = total;
  work.failures = 0;
  deps.log(
    `bridge: message ${work.message.id}: gave up ${given.parts} reply part(s) not delivered within ` +
      `${deps.deliveryHours} h (last error: ${work.lastFailure ?? "none"}); the person is told once the chat takes posts again`,
  );
  try {
    await catchUpJournal(work, deps.journal);
  } catch (error) {
    return retry(null, `the journal could not record the give-up (${describeError(error)})`);
  }
  return retry(null, "the give-up notice waits for the chat", true);
}

/** Appends what the journal lacks of this reply; the work's state is ahead of the journal only after a failed append. */
async function catchUpJournal(work: Delivery, journal: OutboxDeps["journal"]): Promise<void> {
  const id = work.message.id;
  if (work.parts === null) return;
  if (!work.journaled.reply) {
    await journal.append({ t: "reply", id, parts: work.parts, ...(work.dueAt === null ? {} : { at: work.dueAt }) });
    work.journaled.reply = true;
  }
  if (work.gaveUp !== null) {
    if (!work.journaled.gaveUp) {
      await journal.append({ t: "gave-up", id, ...work.gaveUp });
      work.journaled.gaveUp = true;
      work.journaled.posted = work.posted;
    }
  } else if (work.journaled.posted < work.posted) {
    const posted = work.posted;
    await journal.append({ t: "posted", id, part: posted - 1 });
    work.journaled.posted = Math.max(work.journaled.posted, posted);
  }
}
