// The bridge's HTTP face (Hono): `POST /webhook` takes Synology Chat's form post, checks its token in constant
// time, journals the message (fsynced) and answers 200 at once, before Claude runs; when the journal cannot keep
// it (a full disk) the answer is 503, so Synology sends it again later. `GET /healthz` reports.
// A wrong token gets 401 and nothing else happens. A message that cannot run (too large, not UTF-8, empty) is
// still journaled in its place, so the person gets a reply saying why, in order with the rest.
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { chatMessageOf, parseFormBody, sessionKeyOf, WebhookFieldsSchema } from "../core/bridge/webhook.ts";
import { describeError } from "../errors.ts";

export interface AcceptedMessage {
  /** What the journal keeps (text redacted). */
  journaled: JournalMessage;
  /** What Claude gets: the text as the person sent it. */
  live: JournalMessage;
}

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
}

/** Post ids seen lately: Synology re-sends a webhook it thinks failed; the second one is not a new message. */
const SEEN_POST_IDS = 2_000;

export function createWebhookApp(deps: WebhookAppDeps): Hono {
  const app = new Hono();
  const expected = digest(deps.token);
  // A post id counts as seen only once its message is on disk; while its accept runs, a second copy waits for it.
  const seen = new Set<string>();
  const accepting = new Map<string, Promise<boolean>>();
  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > SEEN_POST_IDS) seen.delete(seen.values().next().value as string);
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
  // Percent-encoding triples a byte at worst; past that the body cannot be a message within the limit.
  const maxBody = deps.maxInputBytes * 3 + 64 * 1024;

  app.post(
    "/webhook",
    bodyLimit({
      maxSize: maxBody,
      onError: (c) => {
        deps.warn(`bridge: refused a webhook body over ${maxBody} bytes`);
        return c.json({ error: `body over ${maxBody} bytes` }, 413);
      },
    }),
    async (c) => {
      const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      if (type !== "application/x-www-form-urlencoded") {
        deps.warn(`bridge: refused a webhook with content type "${type || "(none)"}" (Synology sends a form)`);
        return c.json({ error: "expected application/x-www-form-urlencoded" }, 415);
      }
      const body = new Uint8Array(await c.req.arrayBuffer());
      const parsed = parseFormBody(body);
      // A body that is not UTF-8 still shows its token and user id (ASCII) to a lenient parse.
      const lenient = parsed.ok ? parsed.fields : new Map(new URLSearchParams(Buffer.from(body).toString("latin1")));
      if (!tokenMatches(lenient.get("token"), expected)) {
        deps.warn("bridge: refused a webhook with a wrong or missing token");
        return c.json({ error: "invalid token" }, 401);
      }
      const at = deps.now().toISOString();
      const base = {
        id: randomUUID(),
        at,
        userId: lenient.get("user_id") ?? "",
        username: lenient.get("username") ?? lenient.get("user_id") ?? "",
        channelId: null,
        channelName: null,
        postId: null,
        text: "",
        bytes: 0,
      };
      if (!parsed.ok || !WebhookFieldsSchema.safeParse(Object.fromEntries(parsed.fields)).success) {
        const problem = parsed.ok ? "missing user_id or text" : parsed.problem;
        deps.warn(`bridge: webhook from user ${base.userId || "(none)"}: ${problem}`);
        if (base.userId === "") return c.json({ error: problem }, 400);
        const refused = parsed.ok ? ("empty" as const) : ("invalid-utf8" as const);
        // In its conversation's place, so the notice arrives in order with the person's other messages.
        const key = sessionKeyOf(base.userId, lenient.get("channel_id") || null);
        const message = { ...base, key, refused };
        if (!(await acceptDurably({ journaled: message, live: message }))) return unavailable(c);
        return c.json({}, 200);
      }
      const fields = WebhookFieldsSchema.parse(Object.fromEntries(parsed.fields));
      const chat = chatMessageOf(fields);
      const postKey = chat.postId === null ? null : `${chat.key}#${chat.postId}`;
      if (postKey !== null) {
        for (let running = accepting.get(postKey); running !== undefined; running = accepting.get(postKey))
          await running;
        if (seen.has(postKey)) {
          deps.warn(`bridge: post ${chat.postId} arrived again; already accepted, not run twice`);
          return c.json({}, 200);
        }
      }
      const bytes = Buffer.byteLength(chat.text, "utf8");
      const live: JournalMessage = { ...base, ...chat, username: chat.username, text: chat.text, bytes };
      const tooLarge = { ...live, text: "", refused: "too-large" as const };
      const accepted =
        bytes > deps.maxInputBytes
          ? { journaled: tooLarge, live: tooLarge }
          : { journaled: { ...live, text: deps.redact(chat.text) }, live };
      // Seen once on disk (and only then), before any copy waiting on it looks.
      const durable = acceptDurably(accepted).then((kept) => {
        if (postKey === null) return kept;
        accepting.delete(postKey);
        if (kept) remember(postKey);
        return kept;
      });
      if (postKey !== null) accepting.set(postKey, durable);
      const kept = await durable;
      return kept ? c.json({}, 200) : unavailable(c);
    },
  );

  app.get("/healthz", async (c) => c.json({ ok: true, version: deps.version, ...(await deps.health()) }));
  app.notFound((c) => c.json({ error: "not found: POST /webhook, GET /healthz" }, 404));
  return app;
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Constant time whatever the lengths: both sides hashed to 32 bytes first. */
function tokenMatches(given: string | undefined, expected: Buffer): boolean {
  return given !== undefined && given !== "" && timingSafeEqual(digest(given), expected);
}
