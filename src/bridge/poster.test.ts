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
    retries: 3,
    retryBaseMs: 100,
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
    expect(report).toEqual({ posted: 3, lost: 0 });
    expect(calls.map(textOf)).toEqual(["a", "b", "c"]);
    expect(posted).toEqual([0, 1, 2]);
    expect(sleeps).toHaveLength(2);
    for (const ms of sleeps) expect(ms).toBeGreaterThan(400);
  });

  it("backs off on Synology's rate limit and HTTP 429 (Retry-After honoured), then delivers", async () => {
    const calls: Call[] = [];
    const sleeps: number[] = [];
    const warnings: string[] = [];
    const report = await poster(
      [
        { status: 200, body: '{"success":false,"error":{"code":411,"errors":"create post too frequently"}}' },
        { status: 429, body: "", headers: { "retry-after": "3" } },
      ],
      calls,
      sleeps,
      warnings,
    ).postReply("1", ["only"], 0, async () => {});
    expect(report).toEqual({ posted: 1, lost: 0 });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([100, 3_000]);
    expect(warnings[0]).toContain("Synology error 411");
    // The token in the URL never reaches a log line.
    expect(warnings.join("\n")).not.toContain("secret");
    expect(warnings[0]).toContain("https://nas.example:5001/webapi/entry.cgi");
  });

  it("gives up on a part after the retries, logs the loss and goes on with the next", async () => {
    const calls: Call[] = [];
    const warnings: string[] = [];
    const posted: number[] = [];
    const failures = Array.from({ length: 4 }, () => ({ status: 500, body: "" }));
    const report = await poster(failures, calls, [], warnings).postReply("1", ["lost", "kept"], 0, async (part) => {
      posted.push(part);
    });
    expect(report).toEqual({ posted: 1, lost: 1 });
    expect(calls.map(textOf)).toEqual(["lost", "lost", "lost", "lost", "kept"]);
    expect(posted).toEqual([0, 1]);
    expect(warnings.at(-1)).toContain("part 1/2 to https://nas.example:5001/webapi/entry.cgi lost after 4 tries");
  });

  it("does not retry an answer that cannot get better, and resumes from a given part", async () => {
    const calls: Call[] = [];
    const report = await poster([{ status: 403, body: "" }], calls, [], []).postReply(
      "1",
      ["a", "b", "c"],
      1,
      async () => {},
    );
    expect(report).toEqual({ posted: 1, lost: 1 });
    expect(calls.map(textOf)).toEqual(["b", "c"]);
  });

  it("names only the host and path of the incoming URL", () => {
    expect(describeUrl("https://nas:5001/webapi/entry.cgi?token=abc")).toBe("https://nas:5001/webapi/entry.cgi");
  });
});
