// Posts a reply's messages to Synology Chat's incoming webhook: in order, `paceMs` apart, one try each; it stops at
// the first part the chat does not take and says why (can it get better: a network error, a timeout, a 5xx, a rate
// limit with its Retry-After; or was it refused: another 4xx, a Synology error). Waiting and trying again is the
// outbox's (./outbox.ts), which gives the conversation's slot up meanwhile. The URL carries a token: logs name
// its host only.
import { incomingWebhookBody, interpretPostAnswer, type ReplyMode } from "../core/bridge/payload.ts";
import { describeError } from "../errors.ts";

export interface PosterOptions {
  incomingUrl: string;
  mode: ReplyMode;
  paceMs: number;
  timeoutMs: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  warn: (line: string) => void;
}

/** Why a part was not delivered. `refused`: the chat answered, and trying the same again will not help. */
export interface PostFailure {
  refused: boolean;
  /** The chat is up but asked to post more slowly (HTTP 429, Synology's rate-limit errors). */
  rateLimited: boolean;
  /** What the chat asked to wait (Retry-After, a rate limit), or null. */
  retryAfterMs: number | null;
  detail: string;
}

export interface PostReport {
  /** Parts delivered by this call. */
  posted: number;
  /** The first part not delivered and why, or null when every part from `from` on was. */
  failed: { part: number; failure: PostFailure } | null;
}

export interface Poster {
  /** Posts `parts` from `from` on until one fails; `onPosted(i)` runs after part i is delivered (the journal
   *  records it) and before the next is posted; when it throws, posting stops and the error is passed on. */
  postReply(
    userId: string,
    parts: readonly string[],
    from: number,
    onPosted: (part: number) => Promise<void>,
  ): Promise<PostReport>;
  /** One message (a notice), one try. */
  postText(userId: string, text: string, label: string): Promise<PostFailure | null>;
}

export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPoster(options: PosterOptions): Poster {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const where = describeUrl(options.incomingUrl);

  async function postOnce(body: string): Promise<PostFailure | null> {
    let outcome: ReturnType<typeof interpretPostAnswer>;
    try {
      const response = await doFetch(options.incomingUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text();
      outcome = interpretPostAnswer(response.status, text, response.headers.get("retry-after"));
    } catch (error) {
      outcome = { kind: "failed", retryable: true, detail: describeError(error) };
    }
    if (outcome.kind === "ok") return null;
    if (outcome.kind === "rate-limited")
      return { refused: false, rateLimited: true, retryAfterMs: outcome.retryAfterMs, detail: outcome.detail };
    return { refused: !outcome.retryable, rateLimited: false, retryAfterMs: null, detail: outcome.detail };
  }

  async function postText(userId: string, text: string, label: string): Promise<PostFailure | null> {
    const failure = await postOnce(incomingWebhookBody(text, options.mode, userId));
    if (failure !== null) {
      options.warn(`bridge: ${label} to ${where} ${failure.refused ? "refused" : "failed"} (${failure.detail})`);
    }
    return failure;
  }

  return {
    postText,
    async postReply(userId, parts, from, onPosted) {
      const report: PostReport = { posted: 0, failed: null };
      let last = -Infinity;
      for (let index = from; index < parts.length; index += 1) {
        const wait = last + options.paceMs - performance.now();
        if (wait > 0) await sleep(wait);
        const failure = await postText(userId, parts[index] ?? "", `part ${index + 1}/${parts.length}`);
        // Paced from the end of a post: the next message never reaches Synology sooner than paceMs after it.
        last = performance.now();
        if (failure !== null) {
          report.failed = { part: index, failure };
          return report;
        }
        report.posted += 1;
        await onPosted(index);
      }
      return report;
    },
  };
}
