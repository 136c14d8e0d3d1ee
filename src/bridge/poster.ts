// Posts a reply's messages to Synology Chat's incoming webhook: in order, `paceMs` apart, each retried with
// exponential backoff (Synology's "too frequently" answer and HTTP 429 honoured, Retry-After respected); after the
// last retry the part is logged as lost and the next one goes out. The URL carries a token: logs name its host only.
import { incomingWebhookBody, interpretPostAnswer, type ReplyMode, retryDelayMs } from "../core/bridge/payload.ts";
import { describeError } from "../errors.ts";

export interface PosterOptions {
  incomingUrl: string;
  mode: ReplyMode;
  paceMs: number;
  retries: number;
  retryBaseMs: number;
  timeoutMs: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  warn: (line: string) => void;
}

export interface PostReport {
  posted: number;
  lost: number;
}

export interface Poster {
  /** Posts `parts` from `from` on; `onPosted(i)` runs after part i is delivered (the journal records it). */
  postReply(
    userId: string,
    parts: readonly string[],
    from: number,
    onPosted: (part: number) => Promise<void>,
  ): Promise<PostReport>;
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

  async function postOnce(body: string): Promise<ReturnType<typeof interpretPostAnswer>> {
    try {
      const response = await doFetch(options.incomingUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text();
      return interpretPostAnswer(response.status, text, response.headers.get("retry-after"));
    } catch (error) {
      return { kind: "failed", retryable: true, detail: describeError(error) };
    }
  }

  async function postPart(body: string, label: string): Promise<boolean> {
    for (let attempt = 0; ; attempt += 1) {
      const outcome = await postOnce(body);
      if (outcome.kind === "ok") return true;
      const retryable = outcome.kind === "rate-limited" || outcome.retryable;
      if (!retryable || attempt >= options.retries) {
        options.warn(`bridge: ${label} to ${where} lost after ${attempt + 1} tries (${outcome.detail})`);
        return false;
      }
      const wait = retryDelayMs(
        attempt + 1,
        options.retryBaseMs,
        outcome.kind === "rate-limited" ? outcome.retryAfterMs : null,
      );
      options.warn(`bridge: ${label} to ${where} failed (${outcome.detail}); retrying in ${wait} ms`);
      await sleep(wait);
    }
  }

  return {
    async postReply(userId, parts, from, onPosted) {
      const report: PostReport = { posted: 0, lost: 0 };
      let last = -Infinity;
      for (let index = from; index < parts.length; index += 1) {
        const wait = last + options.paceMs - performance.now();
        if (wait > 0) await sleep(wait);
        const delivered = await postPart(
          incomingWebhookBody(parts[index] ?? "", options.mode, userId),
          `part ${index + 1}/${parts.length}`,
        );
        // Paced from the end of a post: the next message never reaches Synology sooner than paceMs after it.
        last = performance.now();
        if (delivered) report.posted += 1;
        else report.lost += 1;
        // A lost part is settled too: a restart must not post it again after the later ones.
        await onPosted(index);
      }
      return report;
    },
  };
}
