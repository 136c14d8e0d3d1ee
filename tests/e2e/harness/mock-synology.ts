// A stand-in for Synology Chat's incoming webhook on 127.0.0.1: records every post (its `payload` JSON and the
// time it arrived) and answers like DSM does (`{"success":true}`), or with a scripted failure first
// (Synology's 411 "create post too frequently", HTTP 429/500) to exercise the bridge's retries. `outcome` decides
// each post's fate for chaos runs: delivered, refused with HTTP 500, or its connection reset; a refused or reset post
// is not recorded (Synology did not show it in the chat).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedPost {
  text: string;
  userIds: unknown;
  /** performance.now() of this process when the post arrived. */
  at: number;
  raw: string;
}

export type ScriptedAnswer = { status: number; body: string; headers?: Record<string, string> };

export interface MockSynology {
  /** The incoming-webhook URL to configure, token included like Synology's. */
  url: string;
  posts: RecordedPost[];
  /** Answers for the next posts, in order; then success. */
  failNext(...answers: ScriptedAnswer[]): void;
  /** Resolves once `count` posts have arrived (or rejects after `timeoutMs`). */
  waitForPosts(count: number, timeoutMs?: number): Promise<RecordedPost[]>;
  close(): Promise<void>;
}

export type PostFate = "deliver" | "fail" | "reset";

export interface MockSynologyOptions {
  /** false (benchmarks) keeps only each post's first 64 characters, so the record does not grow the heap. */
  keepText?: boolean;
  /** Asked once per post not answered by a scripted failure (default: deliver); `raw` is the post's body. */
  outcome?: (raw: string) => PostFate;
}

export async function startMockSynology(options: MockSynologyOptions = {}): Promise<MockSynology> {
  const keep = options.keepText ?? true;
  const posts: RecordedPost[] = [];
  const scripted: ScriptedAnswer[] = [];
  let waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const next = scripted.shift();
      if (next !== undefined) {
        response.writeHead(next.status, { "content-type": "application/json", ...next.headers });
        response.end(next.body);
        return;
      }
      const fate = options.outcome?.(raw) ?? "deliver";
      if (fate === "reset") {
        request.socket.resetAndDestroy();
        return;
      }
      if (fate === "fail") {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end("chaos: internal server error");
        return;
      }
      const payload = JSON.parse(new URLSearchParams(raw).get("payload") ?? "{}") as {
        text?: string;
        user_ids?: unknown;
      };
      const text = payload.text ?? "";
      posts.push({
        // A slice of a string keeps the whole parent alive in V8: copied flat, so only 64 characters stay.
        text: keep ? text : Buffer.from(text.slice(0, 64), "utf8").toString("utf8"),
        userIds: payload.user_ids,
        at: performance.now(),
        raw: keep ? raw : "",
      });
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"success":true}');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webapi/entry.cgi?api=SYNO.Chat.External&method=incoming&version=2&token=%22incoming-secret%22`,
    posts,
    failNext: (...answers) => void scripted.push(...answers),
    waitForPosts: async (count, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (posts.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`mock Synology: ${posts.length} of ${count} posts after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 1_000));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return posts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        waiters = [];
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Synology outgoing-webhook request body. */
export function webhookForm(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}
