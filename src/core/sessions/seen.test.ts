import { describe, expect, it } from "vitest";
import { MAX_SESSIONS_KEPT, recordSessionEnd, recordSessionStart, type SessionsFile } from "./seen.ts";
import { SessionsFileSchema } from "./seen-schema.ts";

const base = { transcriptPath: "/t/a.jsonl", cwd: "/p" };

describe("session bookkeeping", () => {
  it("records a start then an end for the same session", () => {
    const started = recordSessionStart(null, {
      ...base,
      sessionId: "a",
      source: "startup",
      model: "claude-opus-4-6",
      at: new Date("2026-11-01T10:00:00Z"),
    });
    const ended = recordSessionEnd(started, {
      ...base,
      sessionId: "a",
      reason: "prompt_input_exit",
      at: new Date("2026-11-01T11:00:00Z"),
    });
    expect(ended.sessions).toHaveLength(1);
    expect(ended.sessions[0]).toMatchObject({
      sessionId: "a",
      source: "startup",
      model: "claude-opus-4-6",
      startedAt: "2026-11-01T10:00:00.000Z",
      endedAt: "2026-11-01T11:00:00.000Z",
      endReason: "prompt_input_exit",
      starts: 1,
    });
  });

  it("keeps the first start time across resume and compaction, and clears the end on restart", () => {
    let file = recordSessionStart(null, {
      ...base,
      sessionId: "a",
      source: "startup",
      model: null,
      at: new Date(1000),
    });
    file = recordSessionEnd(file, { ...base, sessionId: "a", reason: "other", at: new Date(2000) });
    file = recordSessionStart(file, { ...base, sessionId: "a", source: "resume", model: null, at: new Date(3000) });
    expect(file.sessions[0]).toMatchObject({
      startedAt: new Date(1000).toISOString(),
      endedAt: null,
      source: "resume",
      starts: 2,
    });
  });

  it("puts the newest first and bounds the list", () => {
    let file: SessionsFile | null = null;
    for (let i = 0; i < MAX_SESSIONS_KEPT + 5; i++) {
      file = recordSessionStart(file, { ...base, sessionId: `s${i}`, source: "startup", model: null, at: new Date(i) });
    }
    expect(file?.sessions).toHaveLength(MAX_SESSIONS_KEPT);
    expect(file?.sessions[0]?.sessionId).toBe(`s${MAX_SESSIONS_KEPT + 4}`);
  });

  it("records an end without a start (SessionStart hook missed) with unknown start", () => {
    const file = recordSessionEnd(null, { ...base, sessionId: "b", reason: null, at: new Date(5) });
    expect(file.sessions[0]).toMatchObject({ sessionId: "b", startedAt: null, starts: 0, endReason: null });
  });
});

describe("session pid", () => {
  const start = (file: SessionsFile | null, extra: { pid?: number | null } = {}) =>
    recordSessionStart(file, { ...base, sessionId: "a", source: "startup", model: null, at: new Date(1), ...extra });

  it("records Claude Code's pid at each start; a start without one leaves it unknown", () => {
    let file = start(null, { pid: 4242 });
    expect(file.sessions[0]?.pid).toBe(4242);
    file = start(file, { pid: 5151 });
    expect(file.sessions[0]?.pid).toBe(5151);
    file = start(file);
    expect(file.sessions[0]?.pid).toBeUndefined();
    expect(SessionsFileSchema.parse(file).sessions[0]?.pid).toBeUndefined();
  });

  it("a sessions file written before pids were recorded still validates", () => {
    const { pid: _pid, ...old } = start(null, { pid: 1 }).sessions[0] ?? {};
    expect(SessionsFileSchema.safeParse({ sessions: [old] }).success).toBe(true);
    expect(SessionsFileSchema.safeParse({ sessions: [{ ...old, pid: null }] }).success).toBe(true);
    expect(SessionsFileSchema.safeParse({ sessions: [{ ...old, pid: 1.5 }] }).success).toBe(false);
  });

  it("keeps the recorded Claude Code pid through the session's end", () => {
    const started = recordSessionStart(null, {
      ...base,
      sessionId: "p",
      source: "startup",
      model: null,
      pid: 4242,
      at: new Date(1),
    });
    const ended = recordSessionEnd(started, { ...base, sessionId: "p", reason: "other", at: new Date(2) });
    expect(ended.sessions[0]?.pid).toBe(4242);
  });
});
