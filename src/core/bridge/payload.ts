// What goes back to Synology Chat: a reply cut into `[i/N]` messages (chunkOutput: fences closed and reopened),
// each sent to the incoming webhook as a form field `payload={"text": …}` (a chatbot reply also names its
// recipient in `user_ids`), and how to read Synology's answer: success, rate limited, or failed. Pure.
import { chunkOutput } from "../chunking/output.ts";

export type ReplyMode = "webhook" | "chatbot";

/** The messages of one reply, in posting order; an empty reply becomes one short message. */
export function replyMessages(text: string, maxChars: number): string[] {
  const trimmed = text.trim();
  if (trimmed === "") return ["(Claude answered with no text.)"];
  if (trimmed.length <= maxChars) return [trimmed];
  return chunkOutput(trimmed, { max: maxChars }).map((chunk) => chunk.text);
}

/** The request body for the incoming webhook (`Content-Type: application/x-www-form-urlencoded`). */
export function incomingWebhookBody(text: string, mode: ReplyMode, userId: string): string {
  const payload: { text: string; user_ids?: number[] | string[] } = { text };
  if (mode === "chatbot") {
    // Synology's bot API takes numeric user ids; keep a non-numeric id as the string it came as.
    payload.user_ids = /^\d+$/.test(userId) ? [Number(userId)] : [userId];
  }
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export type PostOutcome =
  | { kind: "ok" }
  | { kind: "rate-limited"; retryAfterMs: number | null; detail: string }
  | { kind: "failed"; retryable: boolean; detail: string };

/** Synology answers 200 with `{"success": false, "error": {"code": 411, …}}` when posting too fast. */
const RATE_LIMIT_CODES = new Set([411, 429]);

export function interpretPostAnswer(status: number, body: string, retryAfter: string | null): PostOutcome {
  const retryAfterMs = parseRetryAfter(retryAfter);
  if (status === 429) return { kind: "rate-limited", retryAfterMs, detail: "HTTP 429" };
  if (status >= 500) return { kind: "failed", retryable: true, detail: `HTTP ${status}` };
  if (status < 200 || status >= 300) return { kind: "failed", retryable: status === 408, detail: `HTTP ${status}` };
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    // Some DSM versions answer an empty or plain body: a 2xx is taken as delivered.
    return { kind: "ok" };
  }
  if (typeof answer !== "object" || answer === null || (answer as { success?: unknown }).success !== false) {
    return { kind: "ok" };
  }
  const error = (answer as { error?: { code?: unknown; errors?: unknown } }).error;
  const code = typeof error?.code === "number" ? error.code : null;
  const detail = `Synology error ${code ?? "?"}${typeof error?.errors === "string" ? `: ${error.errors}` : ""}`;
  if (code !== null && RATE_LIMIT_CODES.has(code)) return { kind: "rate-limited", retryAfterMs, detail };
  return { kind: "failed", retryable: false, detail };
}

function parseRetryAfter(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value.trim());
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 60_000) : null;
}

/** The wait before retry `attempt` (1-based): exponential from `baseMs`, or what the server asked for if longer;
 *  never more than `maxMs`. */
export function retryDelayMs(attempt: number, baseMs: number, asked: number | null, maxMs = Infinity): number {
  const backoff = baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40);
  return Math.min(asked === null ? backoff : Math.max(asked, backoff), maxMs);
}
