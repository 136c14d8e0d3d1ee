// The bridge's HTTP face (Hono): `POST /webhook` takes Synology Chat's form post, checks its token in constant
// time, journals the message (fsynced) and answers 200 at once, before Claude runs; when the journal cannot keep
// it (a full disk) the answer is 503, so Synology sends it again later. `GET /healthz` reports.
// Bodies are read with a running cap (body-reader.ts), at most 16 at once (more get 503 + Retry-After), and a
// wrong token in the first field stops the reading: a flood costs bounded memory. A wrong token gets 401 and
// nothing else happens. A request takes one of the 16 only once its token shows (read-slots.ts, issue 31): until
// then it holds a few KiB and has TOKEN_WITHIN_MS to show it, so strangers trickling bodies cannot starve messages. A message that cannot run (over the cap, too large, not UTF-8, empty, not a form) is
// still journaled in its place when its token and user id show, so the person hears why, in order with the rest.
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { type Context, Hono } from "hono";
import { type JournalMessage, postKeyOf, SEEN_POST_KEYS } from "../core/bridge/journal.ts";
import {
  chatMessageOf,
  parseFormBody,
  readableFieldsOf,
  sessionKeyOf,
  WebhookFieldsSchema,
} from "../core/bridge/webhook.ts";
import { describeError } from "../errors.ts";
import type { AcceptedMessage } from "./accepted-message.ts";
import { readBodyCapped } from "./body-reader.ts";
import { createReadSlots } from "./read-slots.ts";

export interface WebhookAppDeps {
  token: string;
  maxInputBytes: number;
  version: string;
  /** Journals the message (on disk when it resolves) and queues it; rejects when the journal could not keep it. */
  accept: (message: AcceptedMessage) => Promise<void>;
  redact: (text: string) => string;
  now: () => Date;
  health: () => Promise<Record<string, unknown>>;
  warn: (line: string) => void;
  /** Bodies read at once (default 16); a request past them gets 503 with Retry-After, its body unread. */
  maxBodiesInFlight?: number;
  /** How long a request may take to show its token (default TOKEN_WITHIN_MS); then 408 and it is closed. */
  tokenWithinMs?: number;
  /** Requests read at once before their token shows (default 64); a newer one drops the oldest. */
  maxStrangersReading?: number;
  /** Post keys accepted before this start (the journal keeps them): a webhook re-sent across a restart is known. */
  seenPostKeys?: readonly string[];
}

/** Bodies read at once: with each at most the HTTP cap (~3 MiB), a flood holds at most ~50 MB. */
const MAX_BODIES_IN_FLIGHT = 16;
const RETRY_AFTER_SECONDS = 5;
/** Synology sends `token` first, with the headers: 5 s is generous on a LAN, and short for a sender holding on. */
export const TOKEN_WITHIN_MS = 5_000;
/** Bytes a request may send before its token shows (the token pair is read whole up to 4 KiB, webhook.ts). */
const FIRST_BYTES = 16 * 1024;
/** Strangers read at once: each holds at most FIRST_BYTES plus one chunk, so 64 hold a few MB at worst. */
const MAX_STRANGERS_READING = 64;

export function createWebhookApp(deps: WebhookAppDeps): Hono {
  const app = new Hono();
  const expected = digest(deps.token);
  // A post id counts as seen only once its message is on disk; while its accept runs, a second copy waits for it.
  // Synology re-sends a webhook it thinks failed; the second one is not a new message.
  const seen = new Set<string>(deps.seenPostKeys ?? []);
  const accepting = new Map<string, Promise<boolean>>();
  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > SEEN_POST_KEYS) seen.delete(seen.values().next().value as string);
  };
  /** Journals the message; false (logged) when the journal could not keep it, and the caller answers 503. */
  const acceptDurably = async (message: AcceptedMessage): Promise<boolean> => {
    try {
      await deps.accept(message);
      return true;
    } catch (error) {
      deps.warn(
        `bridge: could not keep a message from user ${message.journaled.userId} (answered 503; the chat will send it again): ${describeError(error)}`,
      );
      return false;
    }
  };
  const unavailable = (c: Context) => c.json({ error: "the bridge could not store the message; try again" }, 503);
  /** One message through the post-id check and the journal; the answer for it once kept, 503 when not. */
  const acceptOnce = async (c: Context, accepted: AcceptedMessage, answer: () => Response): Promise<Response> => {
    const { postId } = accepted.journaled;
    const postKey = postKeyOf(accepted.journaled);
    if (postKey !== null) {
      for (let running = accepting.get(postKey); running !== undefined; running = accepting.get(postKey)) await running;
      if (seen.has(postKey)) {
        deps.warn(`bridge: post ${postId} arrived again; already accepted, not run twice`);
        return answer();
      }
    }
    // Seen once on disk (and only then), before any copy waiting on it looks.
    const durable = acceptDurably(accepted).then((kept) => {
      if (postKey === null) return kept;
      accepting.delete(postKey);
      if (kept) remember(postKey);
      return kept;
    });
    if (postKey !== null) accepting.set(postKey, durable);
    return (await durable) ? answer() : unavailable(c);
  };
  /** A message that cannot run, from what its fields show: journaled in its conversation's place, so the person
   *  hears why in order with their other messages. Null when no user id shows (there is nobody to tell). */
  const refuse = (
    c: Context,
    fields: ReadonlyMap<string, string>,
    refused: NonNullable<JournalMessage["refused"]>,
    bytes: number,
    answer: () => Response,
  ): Promise<Response> | null => {
    const userId = fields.get("user_id") ?? "";
    if (userId === "") return null;
    const postId = fields.get("post_id") || null;
    const channelId = fields.get("channel_id") || null;
    const message: JournalMessage = {
      id: randomUUID(),
      at: deps.now().toISOString(),
      key: sessionKeyOf(userId, channelId),
      userId,
      username: fields.get("username") ?? userId,
      channelId,
      channelName: fields.get("channel_name") || null,
      postId,
      text: "",
      bytes,
      refused,
    };
    return acceptOnce(c, { journaled: message, live: message }, answer);
  };
  // Percent-encoding triples a byte at worst; past that the body cannot be a message within the limit.
  const maxBody = deps.maxInputBytes * 3 + 64 * 1024;
  const maxReading = deps.maxBodiesInFlight ?? MAX_BODIES_IN_FLIGHT;
  const tokenWithinMs = deps.tokenWithinMs ?? TOKEN_WITHIN_MS;
  const maxStrangers = deps.maxStrangersReading ?? MAX_STRANGERS_READING;
  let turnedAway = 0;
  let dropped = 0;
  let crowded = 0;
  const slots = createReadSlots({
    slots: maxReading,
    // A body that does not show its token in its first bytes (not Synology's order) may still be read, in a
    // quarter of the slots: the rest are kept for messages that have shown it.
    strangerSlots: Math.max(1, Math.floor(maxReading / 4)),
    maxStrangers,
    tokenMs: tokenWithinMs,
    onDrop: (why) => {
      // Logged once per spell (counted when nothing is read any more): a flood must not flood the log too.
      if (dropped === 0)
        deps.warn(
          why === "crowded"
            ? `bridge: closed a webhook request that had shown no token, to make room for a newer one (more than ${maxStrangers} read at once without a token; 408); strangers cannot hold the bridge's slots`
            : `bridge: closed a webhook request that showed no token within ${tokenWithinMs} ms (408); strangers cannot hold the bridge's slots`,
        );
      dropped += 1;
      if (why === "crowded") crowded += 1;
    },
  });
  const busy = (c: Context) => {
    if (turnedAway === 0)
      deps.warn(`bridge: ${maxReading} webhook bodies in flight; answering 503 (Retry-After) until they are done`);
    turnedAway += 1;
    return c.json({ error: "busy; try again" }, 503, {
      "retry-after": String(RETRY_AFTER_SECONDS),
      connection: "close",
    });
  };

  app.post("/webhook", async (c) => {
    // A token in the URL's query (an outgoing URL set up with one) is judged before anything is read.
    const queryToken = c.req.query("token");
    if (queryToken !== undefined && !tokenMatches(queryToken, expected)) {
      deps.warn("bridge: refused a webhook with a wrong token in its URL (its body was not read)");
      return c.json({ error: "invalid token" }, 401, { connection: "close" });
    }
    const ticket = slots.open(queryToken !== undefined);
    if (ticket === null) return busy(c);
    try {
      return await answerWebhook(c, ticket);
    } finally {
      ticket.close();
      // The spell ends when nothing is read any more, strangers showing their first bytes included.
      if (slots.busy() === 0 && (turnedAway > 0 || dropped > 0)) {
        const forRoom = crowded > 0 ? ` (${crowded} of them to make room for newer ones)` : "";
        deps.warn(
          `bridge: no longer busy; ${turnedAway} request(s) were answered 503 unread, ${dropped} closed without a token${forRoom}`,
        );
        turnedAway = 0;
        dropped = 0;
        crowded = 0;
      }
    }
  });

  async function answerWebhook(c: Context, ticket: NonNullable<ReturnType<typeof slots.open>>): Promise<Response> {
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    const declared = Number(c.req.header("content-length") ?? Number.NaN);
    const read = await readBodyCapped(
      c.req.raw.body,
      maxBody,
      Number.isSafeInteger(declared) && declared >= 0 ? declared : null,
      (token) => !tokenMatches(token, expected),
      { ...ticket, firstBytes: FIRST_BYTES },
    );
    ticket.settle();
    if (read.kind === "busy") return busy(c);
    if (read.kind === "dropped") {
      c.header("connection", "close");
      const error =
        ticket.signal.reason === "crowded"
          ? `no token yet, and more than ${maxStrangers} requests without one: the oldest was closed to make room`
          : `no token within ${tokenWithinMs} ms`;
      return c.json({ error }, 408);
    }
    if (read.kind === "wrong-token") {
      deps.warn("bridge: refused a webhook with a wrong token (the rest of its body was not read)");
      c.header("connection", "close");
      return c.json({ error: "invalid token" }, 401);
    }
    const over = read.kind === "over-cap";
    // The rest of the body stays unread: the connection closes after the answer instead of draining it.
    if (over) c.header("connection", "close");
    const body = over ? read.prefix : read.body;
    if (type !== "application/x-www-form-urlencoded") {
      deps.warn(`bridge: refused a webhook with content type "${type || "(none)"}" (Synology sends a form)`);
      const answer = () => c.json({ error: "expected application/x-www-form-urlencoded" }, 415);
      const fields = foreignFieldsOf(body, type, over);
      if (!tokenMatches(fields.get("token"), expected)) return answer();
      return (await refuse(c, fields, "wrong-content-type", 0, answer)) ?? answer();
    }
    if (over) {
      const fields = readableFieldsOf(body, true);
      if (!tokenMatches(fields.get("token"), expected)) {
        deps.warn(`bridge: refused a webhook body over ${maxBody} bytes with a wrong or missing token`);
        return c.json({ error: "invalid token" }, 401);
      }
      deps.warn(`bridge: refused a webhook body over ${maxBody} bytes from user ${fields.get("user_id") || "(none)"}`);
      const answer = () => c.json({ error: `body over ${maxBody} bytes` }, 413);
      return (await refuse(c, fields, "too-large", 0, answer)) ?? answer();
    }
    const parsed = parseFormBody(body);
    // A body that is not UTF-8 still shows its token and user id (ASCII) to a lenient parse.
    const lenient = parsed.ok ? parsed.fields : readableFieldsOf(body);
    if (!tokenMatches(lenient.get("token"), expected)) {
      deps.warn("bridge: refused a webhook with a wrong or missing token");
      return c.json({ error: "invalid token" }, 401);
    }
    const ok = () => c.json({}, 200);
    if (!parsed.ok || !WebhookFieldsSchema.safeParse(Object.fromEntries(parsed.fields)).success) {
      const problem = parsed.ok ? "missing user_id or text" : parsed.problem;
      deps.warn(`bridge: webhook from user ${lenient.get("user_id") || "(none)"}: ${problem}`);
      const refused = parsed.ok ? ("empty" as const) : ("invalid-utf8" as const);
      return (await refuse(c, lenient, refused, 0, ok)) ?? c.json({ error: problem }, 400);
    }
    const fields = WebhookFieldsSchema.parse(Object.fromEntries(parsed.fields));
    const chat = chatMessageOf(fields);
    const bytes = Buffer.byteLength(chat.text, "utf8");
    const live: JournalMessage = { id: randomUUID(), at: deps.now().toISOString(), ...chat, bytes };
    const tooLarge = { ...live, text: "", refused: "too-large" as const };
    const accepted =
      bytes > deps.maxInputBytes
        ? { journaled: tooLarge, live: tooLarge }
        : { journaled: { ...live, text: deps.redact(chat.text) }, live };
    return acceptOnce(c, accepted, ok);
  }

  app.get("/healthz", async (c) => c.json({ ok: true, version: deps.version, ...(await deps.health()) }));
  app.notFound((c) => c.json({ error: "not found: POST /webhook, GET /healthz" }, 404));
  // A request that fails while its body is read (the sender gone, or cut off at the time limit: ../http/listener.ts)
  // is one line in the bridge's log, not Hono's stack trace on stderr; nothing was accepted.
  app.onError((error, c) => {
    deps.warn(`bridge: a webhook request failed before it was accepted (${describeError(error)})`);
    return c.json({ error: "the request failed before it was read" }, 400);
  });
  return app;
}

/** The fields of a body sent as something other than a form: a JSON object's strings, or a form's pairs. */
function foreignFieldsOf(body: Uint8Array, type: string, cut: boolean): Map<string, string> {
  if (type !== "application/json" || cut) return readableFieldsOf(body, cut);
  try {
    const parsed: unknown = JSON.parse(Buffer.from(body).toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return new Map();
    return new Map(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  } catch {
    return new Map();
  }
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Constant time whatever the lengths: both sides hashed to 32 bytes first. */
function tokenMatches(given: string | undefined, expected: Buffer): boolean {
  return given !== undefined && given !== "" && timingSafeEqual(digest(given), expected);
}
