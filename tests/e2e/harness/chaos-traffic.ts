// The traffic of a bridge chaos run (bridge-chaos.ts), pure: the messages people send (each line starting with the
// message's id, a share of them longer than one Claude turn takes) and the tally of what reached the chat, matched
// back to the messages by that id (the stub Claude echoes it on every line of its answer, so every `[i/N]` chat
// message of a reply carries it): answered exactly once, twice, or lost, and how late.
import { aggregateAnswers, planPromptParts } from "../../../src/core/bridge/messages.ts";
import { replyMessages } from "../../../src/core/bridge/payload.ts";
import { seededRandom } from "../../helpers/seeded-random.ts";
import { chaosReplyText } from "./chaos-claude.mjs";
import type { RecordedPost } from "./mock-synology.ts";

export interface ChaosMessage {
  id: string;
  user: number;
  /** Its place among the user's messages. */
  seq: number;
  postId: string;
  text: string;
}

const WORDS = "please check why the nightly backup of the photo share failed again after the update on tuesday".split(
  " ",
);

/** A text of about `chars` characters whose every line (~80 characters) starts with `id`. */
function messageText(id: string, chars: number, random: () => number): string {
  const lines: string[] = [];
  let total = 0;
  while (total < chars) {
    const words: string[] = [];
    for (let i = 0; i < 11; i += 1) words.push(WORDS[Math.floor(random() * WORDS.length)] ?? "please");
    const line = `${id} ${words.join(" ")}`.slice(0, Math.max(id.length + 1, chars - total));
    lines.push(line);
    total += line.length + 1;
  }
  return lines.join("\n");
}

/**
 * `count` messages from `users` people, in sending order per user (user u sends messages u, u + users, …); a
 * `longShare` of them (spread evenly) are 15,001-40,000 characters, the rest 60-1,600.
 */
export function planChaosMessages(count: number, users: number, longShare: number, seed: number): ChaosMessage[] {
  const random = seededRandom(seed);
  const longEvery = longShare > 0 ? Math.max(1, Math.round(1 / longShare)) : Number.POSITIVE_INFINITY;
  const perUser = new Map<number, number>();
  return Array.from({ length: count }, (_, index) => {
    const user = index % users;
    const seq = perUser.get(user) ?? 0;
    perUser.set(user, seq + 1);
    const id = `MSG-u${String(user).padStart(2, "0")}-${String(seq).padStart(4, "0")}`;
    const long = index % longEvery === longEvery - 1;
    const chars = long ? 15_001 + Math.floor(random() * 25_000) : 60 + Math.floor(random() * 1_540);
    return { id, user, seq, postId: String(10_000 + index), text: messageText(id, chars, random) };
  });
}

/**
 * How many chat messages the reply to `message` takes when every turn succeeds: the stub's answers to its parts,
 * aggregated and cut as the bridge does. Lets a reply that never arrived at all count its every part as missing.
 */
export function plannedReplyParts(message: ChaosMessage, inputChunkChars: number, outputChunkChars: number): number {
  const parts = planPromptParts(message.text, inputChunkChars);
  const answers = parts.map((part) => chaosReplyText(message.id, part.index + 1, part.total));
  return replyMessages(aggregateAnswers(answers), outputChunkChars).length;
}

export interface MessageTiming {
  /** performance.now() when the webhook first got 200 (null: never accepted). */
  acceptedAt: number | null;
}

export interface ChaosTally {
  accepted: number;
  answeredExactlyOnce: number;
  answeredTwice: number;
  /** Accepted, and some part of the reply never reached the chat (none at all, or a part missing). */
  lost: number;
  lostEntirely: number;
  lostIds: string[];
  partsDelivered: number;
  partsDuplicated: number;
  /** Parts of the accepted messages' replies: the N of their `[i/N]` when seen, else as planned (plannedReplyParts). */
  partsExpected: number;
  /** Of those, never delivered. */
  partsMissing: number;
  /** Replies whose N differs from the plan (a failed turn's notice, say): a check on the plan itself. */
  partsUnplanned: number;
  /** Posts carrying no message id (error notices, …), with the first few for the report. */
  unmatchedPosts: number;
  unmatchedSamples: string[];
  /** Replies that reached the chat before the reply to an earlier message of the same person. */
  outOfOrder: number;
  /** Messages with a part posted twice (the first few). */
  duplicatedIds: string[];
  longestDeliveryDelaySeconds: number;
  p95DeliveryDelaySeconds: number;
}

interface ReplySeen {
  total: number;
  counts: Map<number, number>;
  firstAt: number;
  lastAt: number;
}

const PREFIX = /^\[(\d+)\/(\d+)\] /;
const ID = /MSG-u\d+-\d+/;

function repliesByMessage(posts: readonly RecordedPost[]): { seen: Map<string, ReplySeen>; unmatched: string[] } {
  const seen = new Map<string, ReplySeen>();
  const unmatched: string[] = [];
  for (const post of posts) {
    const id = ID.exec(post.text)?.[0];
    if (id === undefined) {
      unmatched.push(post.text.slice(0, 160));
      continue;
    }
    const prefix = PREFIX.exec(post.text);
    const index = prefix === null ? 1 : Number(prefix[1]);
    const total = prefix === null ? 1 : Number(prefix[2]);
    const reply = seen.get(id) ?? { total, counts: new Map(), firstAt: post.at, lastAt: post.at };
    reply.total = Math.max(reply.total, total);
    reply.counts.set(index, (reply.counts.get(index) ?? 0) + 1);
    reply.lastAt = Math.max(reply.lastAt, post.at);
    seen.set(id, reply);
  }
  return { seen, unmatched };
}

/**
 * Seconds from `since` (an outage's end, performance.now()) until every reply accepted before it (of the messages in
 * `only`, when given) was whole in the chat; null while one of them is not (never drained). 0 when nothing was owed.
 */
export function drainSeconds(
  messages: readonly ChaosMessage[],
  timing: ReadonlyMap<string, MessageTiming>,
  posts: readonly RecordedPost[],
  since: number,
  only: ReadonlySet<string> | null = null,
): number | null {
  const { seen } = repliesByMessage(posts);
  let last = since;
  for (const message of messages) {
    const acceptedAt = timing.get(message.id)?.acceptedAt ?? null;
    if (acceptedAt === null || acceptedAt > since || (only !== null && !only.has(message.id))) continue;
    const reply = seen.get(message.id);
    if (reply === undefined || reply.counts.size !== reply.total) return null;
    last = Math.max(last, reply.lastAt);
  }
  return round((last - since) / 1000);
}

/** True once every accepted message has every part of its reply in the chat (the run can stop waiting). */
export function everyReplyComplete(
  messages: readonly ChaosMessage[],
  timing: ReadonlyMap<string, MessageTiming>,
  posts: readonly RecordedPost[],
): boolean {
  const { seen } = repliesByMessage(posts);
  return messages.every((message) => {
    if (timing.get(message.id)?.acceptedAt == null) return false;
    const reply = seen.get(message.id);
    return reply !== undefined && reply.counts.size === reply.total;
  });
}

export function tallyChaos(
  messages: readonly ChaosMessage[],
  timing: ReadonlyMap<string, MessageTiming>,
  posts: readonly RecordedPost[],
  planned: (message: ChaosMessage) => number,
): ChaosTally {
  const { seen, unmatched } = repliesByMessage(posts);
  const tally: ChaosTally = {
    accepted: 0,
    answeredExactlyOnce: 0,
    answeredTwice: 0,
    lost: 0,
    lostEntirely: 0,
    lostIds: [],
    partsDelivered: 0,
    partsDuplicated: 0,
    partsExpected: 0,
    partsMissing: 0,
    partsUnplanned: 0,
    unmatchedPosts: unmatched.length,
    unmatchedSamples: unmatched.slice(0, 5),
    outOfOrder: 0,
    duplicatedIds: [],
    longestDeliveryDelaySeconds: 0,
    p95DeliveryDelaySeconds: 0,
  };
  const delays: number[] = [];
  const lastSeqAt = new Map<number, { seq: number; at: number }>();
  for (const message of messages) {
    const acceptedAt = timing.get(message.id)?.acceptedAt ?? null;
    const reply = seen.get(message.id);
    if (acceptedAt !== null) tally.accepted += 1;
    if (reply === undefined) {
      if (acceptedAt !== null) {
        const parts = planned(message);
        tally.lost += 1;
        tally.lostEntirely += 1;
        tally.partsExpected += parts;
        tally.partsMissing += parts;
        tally.lostIds.push(message.id);
      }
      continue;
    }
    const counts = [...reply.counts.values()];
    tally.partsExpected += reply.total;
    if (reply.total !== planned(message)) tally.partsUnplanned += 1;
    tally.partsDelivered += reply.counts.size;
    tally.partsDuplicated += counts.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const complete = reply.counts.size === reply.total;
    if (counts.some((n) => n > 1)) {
      tally.answeredTwice += 1;
      if (tally.duplicatedIds.length < 5) tally.duplicatedIds.push(message.id);
    } else if (complete) tally.answeredExactlyOnce += 1;
    if (!complete) {
      tally.lost += 1;
      tally.partsMissing += reply.total - reply.counts.size;
      tally.lostIds.push(message.id);
    } else if (acceptedAt !== null) {
      delays.push((reply.lastAt - acceptedAt) / 1000);
    }
    // Messages are planned in sending order per user: a reply arriving before the previous one's is out of order.
    const previous = lastSeqAt.get(message.user);
    if (previous !== undefined && reply.firstAt < previous.at) tally.outOfOrder += 1;
    lastSeqAt.set(message.user, { seq: message.seq, at: reply.firstAt });
  }
  tally.lostIds = tally.lostIds.slice(0, 20);
  delays.sort((a, b) => a - b);
  tally.longestDeliveryDelaySeconds = round(delays.at(-1) ?? 0);
  tally.p95DeliveryDelaySeconds = round(delays[Math.min(delays.length - 1, Math.floor(delays.length * 0.95))] ?? 0);
  return tally;
}

export const round = (n: number, digits = 1): number => Number(n.toFixed(digits));
