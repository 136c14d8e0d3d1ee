// What Synology Chat sends: an `application/x-www-form-urlencoded` body from an outgoing webhook (channel: with
// `channel_id`, `trigger_word`, …) or a chatbot (direct chat: `user_id` only). Parsed strictly: percent-decoded
// bytes must be UTF-8 (a lenient decoder would hand Claude U+FFFD in place of the person's text). Pure.
import * as z from "zod/mini";

export type FormParse = { ok: true; fields: Map<string, string> } | { ok: false; problem: string };

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Parses a urlencoded body; the first occurrence of a name wins. */
export function parseFormBody(body: Uint8Array): FormParse {
  const fields = new Map<string, string>();
  let raw: string;
  try {
    raw = UTF8.decode(body);
  } catch {
    return { ok: false, problem: "the body is not valid UTF-8" };
  }
  if (raw.trim() === "") return { ok: false, problem: "the body is empty" };
  for (const pair of raw.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = decodeComponent(equals < 0 ? pair : pair.slice(0, equals));
    const value = decodeComponent(equals < 0 ? "" : pair.slice(equals + 1));
    if (name === null) return { ok: false, problem: "a field name is not valid percent-encoded UTF-8" };
    if (value === null) return { ok: false, problem: `field "${name}" is not valid percent-encoded UTF-8` };
    if (!fields.has(name)) fields.set(name, value);
  }
  return { ok: true, fields };
}

/**
 * The fields a body shows even when it cannot be read strictly: the whole pairs of a body cut at the size cap
 * (the cut pair dropped), and a body that is not UTF-8 read as Latin-1 (its token and user id are ASCII). First
 * occurrence wins, as in parseFormBody.
 */
export function readableFieldsOf(body: Uint8Array, cut = false): Map<string, string> {
  const whole = cut ? body.subarray(0, body.lastIndexOf(AMPERSAND) + 1) : body;
  const parsed = parseFormBody(whole);
  if (parsed.ok) return parsed.fields;
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(Buffer.from(whole).toString("latin1")))
    if (!fields.has(name)) fields.set(name, value);
  return fields;
}

const AMPERSAND = 0x26;
/** Past this a token is left to the whole body's reading (a configured token is far shorter). */
const MAX_TOKEN_PAIR_BYTES = 4096;

/**
 * Finds the `token` field of a urlencoded body while its bytes arrive, so a wrong token is refused before the
 * rest is read (Synology sends `token` first). `push` returns the token's value once its pair is whole (followed
 * by `&`), `undefined` while it is not known or cannot be known early (a token pair over 4 KiB). Only the pair
 * being read is kept, at most 4 KiB of it.
 */
export function createTokenScanner(): { push: (chunk: Uint8Array) => string | undefined } {
  let pieces: Uint8Array[] = [];
  let kept = 0;
  let token: string | undefined;
  let settled = false;
  return {
    push(chunk) {
      for (let start = 0; !settled; ) {
        const end = chunk.indexOf(AMPERSAND, start);
        const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
        const room = MAX_TOKEN_PAIR_BYTES + 1 - kept;
        if (room > 0) pieces.push(piece.subarray(0, room).slice());
        kept += piece.length;
        if (end < 0 && kept <= MAX_TOKEN_PAIR_BYTES) break;
        const fields = readableFieldsOf(Buffer.concat(pieces));
        if (kept > MAX_TOKEN_PAIR_BYTES) {
          // The first `token` (first wins) is too long to judge early: the whole body decides.
          settled = fields.has("token");
          if (end < 0) break;
        } else {
          token = fields.get("token");
          settled = token !== undefined;
        }
        pieces = [];
        kept = 0;
        start = end + 1;
      }
      return token;
    },
  };
}

function decodeComponent(text: string): string | null {
  const plus = text.replaceAll("+", " ");
  if (!plus.includes("%")) return plus;
  const bytes: number[] = [];
  for (let i = 0; i < plus.length; i += 1) {
    const code = plus.charCodeAt(i);
    if (code === 37 /* % */) {
      const hex = plus.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (code < 0x80) {
      bytes.push(code);
    } else {
      // A raw non-ASCII character (the body was valid UTF-8 already): its own UTF-8 bytes.
      const char = String.fromCodePoint(plus.codePointAt(i) ?? code);
      bytes.push(...new TextEncoder().encode(char));
      i += char.length - 1;
    }
  }
  try {
    return UTF8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

export const WebhookFieldsSchema = z.object({
  token: z.string(),
  user_id: z.string().check(z.minLength(1)),
  username: z.optional(z.string()),
  text: z.string(),
  channel_id: z.optional(z.string()),
  channel_name: z.optional(z.string()),
  post_id: z.optional(z.string()),
  thread_id: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  trigger_word: z.optional(z.string()),
});
export type WebhookFields = z.infer<typeof WebhookFieldsSchema>;

export interface ChatMessage {
  /** The conversation: `<channel_id>:<user_id>` in a channel, `dm:<user_id>` in a direct chat. */
  key: string;
  userId: string;
  username: string;
  channelId: string | null;
  channelName: string | null;
  postId: string | null;
  text: string;
}

export function sessionKeyOf(userId: string, channelId: string | null): string {
  return channelId === null ? `dm:${userId}` : `${channelId}:${userId}`;
}

/** The message a webhook request carries; the trigger word (channel webhooks) is taken off the text. */
export function chatMessageOf(fields: WebhookFields): ChatMessage {
  const channelId = fields.channel_id === undefined || fields.channel_id === "" ? null : fields.channel_id;
  return {
    key: sessionKeyOf(fields.user_id, channelId),
    userId: fields.user_id,
    username: fields.username ?? fields.user_id,
    channelId,
    channelName: fields.channel_name === undefined || fields.channel_name === "" ? null : fields.channel_name,
    postId: fields.post_id === undefined || fields.post_id === "" ? null : fields.post_id,
    text: stripTriggerWord(fields.text, fields.trigger_word),
  };
}

export function stripTriggerWord(text: string, triggerWord: string | undefined): string {
  const trimmed = text.trim();
  if (triggerWord === undefined || triggerWord === "") return trimmed;
  if (trimmed.toLowerCase().startsWith(triggerWord.toLowerCase())) {
    return trimmed.slice(triggerWord.length).replace(/^[\s:,]+/, "");
  }
  return trimmed;
}

export type ChatCommand = "status" | "new" | "forget";

/** `/status`, `/new`, `/forget` (alone on the message, any case); anything else is a prompt. */
export function chatCommandOf(text: string): ChatCommand | null {
  const match = /^\/(status|new|forget)\s*$/i.exec(text.trim());
  return match === null ? null : (match[1]?.toLowerCase() as ChatCommand);
}
