import { describe, expect, it } from "vitest";
import { createPoster, describeUrl } from "./poster.ts";

interface Call {
  body: string;
}

function fakeFetch(answers: { status: number; body: string; headers?: Record<string, string> }[], calls: Call[]) {
  return (async (_url: string | URL | Request, init?: RequestInit) => {
    calls.push({ body: String(init?.body) });
    const next = answers.shift() ?? { status: 200, body: '{"success":true}' };
    return new Response(next.body, { status: next.status, headers: next.headers ?? {} });
  }) as typeof fetch;
}

function poster(answers: Parameters<typeof fakeFetch>[0], calls: Call[], sleeps: number[], warnings: string[]) {
  return createPoster({
    incomingUrl: "https://nas.example:5001/webapi/entry.cgi?api=SYNO.Chat.External&token=%22secret%22",
    mode: "webhook",
    paceMs: 500,
    timeoutMs: 1_000,
    fetch: fakeFetch(answers, calls),
    sleep: async (ms) => void sleeps.push(ms),
    warn: (line) => warnings.push(line),
  });
}

const textOf = (call: Call | undefined) =>
  JSON.parse(new URLSearchParams(call?.body ?? "").get("payload") ?? "{}").text as string;

describe("createPoster", () => {
  it("posts the parts in order, paced, and records each as posted", async () => {
    const calls: Call[] = [];
    const sleeps: number[] = [];
    const posted: number[] = [];
    const report = await poster([], calls, sleeps, []).postReply("1", ["a", "b", "c"], 0, async (part) => {
      posted.push(part);
    });
    expect(report).toEqual({ posted: 3, failed: null });
    expect(calls.map(textOf)).toEqual(["a", "b", "c"]);
    expect(posted).toEqual([0, 1, 2]);
    expect(sleeps).toHaveLength(2);
    for (const ms of sleeps) expect(ms).toBeGreaterThan(400);
  });

  it("stops at the first part the chat does not take, says whether it can get better, and posts nothing after it", async () => {
    const calls: Call[] = [];
    const warnings: string[] = [];
    const posted: number[] = [];
    const report = await poster(
      [
        { status: 200, body: "" },
        { status: 502, body: "" },
      ],
      calls,
      [],
      warnings,
    ).postReply("1", ["a", "b", "c"], 0, async (part) => void posted.push(part));
    expect(report).toEqual({
      posted: 1,
      failed: { part: 1, failure: { refused: false, rateLimited: false, retryAfterMs: null, detail: "HTTP 502" } },
    });
    expect(calls.map(textOf)).toEqual(["a", "b"]);
    expect(posted).toEqual([0]);
    // The token in the URL never reaches a log line.
    expect(warnings).toEqual(["bridge: part 2/3 to https://nas.example:5001/webapi/entry.cgi failed (HTTP 502)"]);
  });

  it("reads Synology's rate limit and HTTP 429 as 'wait' (Retry-After kept), a 403 and a Synology error as refused", async () => {
    const outcomes = async (answer: Parameters<typeof fakeFetch>[0][number]) =>
      (await poster([answer], [], [], []).postReply("1", ["x"], 0, async () => {})).failed?.failure;
    expect(
      await outcomes({
        status: 200,
        body: '{"success":false,"error":{"code":411,"errors":"create post too frequently"}}',
      }),
    ).toEqual({
      refused: false,
      rateLimited: true,
      retryAfterMs: null,
      detail: "Synology error 411: create post too frequently",
    });
    expect(await outcomes({ status: 429, body: "", headers: { "retry-after": "3" } })).toEqual({
      refused: false,
      rateLimited: true,
      retryAfterMs: 3_000,
      detail: "HTTP 429",
    });
    expect(await outcomes({ status: 403, body: "" })).toEqual({
      refused: true,
      rateLimited: false,
      retryAfterMs: null,
      detail: "HTTP 403",
    });
    expect(
      await outcomes({ status: 200, body: '{"success":false,"error":{"code":120,"errors":"bad"}}' }),
    ).toMatchObject({
      refused: true,
    });
  });

  it("resumes from a given part; a failing journal record stops the posting", async () => {
    const calls: Call[] = [];
    const report = await poster([], calls, [], []).postReply("1", ["a", "b", "c"], 1, async () => {});
    expect(report).toEqual({ posted: 2, failed: null });
    expect(calls.map(textOf)).toEqual(["b", "c"]);
    const more: Call[] = [];
    await expect(
      poster([], more, [], []).postReply("1", ["a", "b"], 0, async () => {
        throw new Error("ENOSPC");
      }),
    ).rejects.toThrow("ENOSPC");
    expect(more.map(textOf)).toEqual(["a"]);
  });

  it("a network error is a failure that can get better", async () => {
    const failing = createPoster({
      incomingUrl: "https://nas.example/x",
      mode: "chatbot",
      paceMs: 0,
      timeoutMs: 1_000,
      fetch: (async () => {
        throw new TypeError("fetch failed");
      }) as typeof fetch,
      warn: () => {},
    });
    expect(await failing.postText("5", "hello", "notice")).toEqual({
      refused: false,
      rateLimited: false,
      retryAfterMs: null,
      detail: "fetch failed",
    });
  });

  it("names only the host and path of the incoming URL", () => {
    expect(describeUrl("https://nas:5001/webapi/entry.cgi?token=abc")).toBe("https://nas:5001/webapi/entry.cgi");
  });
});
