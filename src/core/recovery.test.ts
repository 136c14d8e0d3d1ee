import { describe, expect, it } from "vitest";
import { decideRecovery, formatRecoveryLine, type RecoveryInput } from "./recovery.ts";
import type { SessionRecord } from "./sessions.ts";

const session = (overrides: Partial<SessionRecord> = {}): SessionRecord => ({
  sessionId: "s-new",
  transcriptPath: "/t/s-new.jsonl",
  cwd: "/repo",
  source: "startup",
  model: null,
  startedAt: "2026-11-22T10:00:00.000Z",
  endedAt: null,
  endReason: null,
  starts: 1,
  lastSeenAt: "2026-11-22T10:00:00.000Z",
  ...overrides,
});

const now = new Date("2026-11-22T12:00:00.000Z");
const checkpoint = { id: "20261122T110000000Z-abcdef", sessionId: "s-new", createdAt: "2026-11-22T11:00:00.000Z" };

const input = (overrides: Partial<RecoveryInput> = {}): RecoveryInput => ({
  sessions: { sessions: [session(), session({ sessionId: "s-old", endedAt: "2026-11-21T10:00:00.000Z" })] },
  transcriptModifiedAt: new Date("2026-11-22T11:30:00.000Z"),
  checkpoint,
  now,
  ...overrides,
});

describe("decideRecovery", () => {
  it("offers the checkpoint when the newest session has no end and its transcript has been quiet for > 10 minutes", () => {
    expect(decideRecovery(input())).toEqual({
      sessionId: "s-new",
      checkpointId: checkpoint.id,
      lastActivity: "2026-11-22T11:30:00.000Z",
    });
  });

  it("a transcript that is gone counts as quiet; the checkpoint's time is then the last activity", () => {
    expect(decideRecovery(input({ transcriptModifiedAt: null }))?.lastActivity).toBe(checkpoint.createdAt);
  });

  it("nothing while the transcript changed in the last 10 minutes (the session may still be running)", () => {
    expect(decideRecovery(input({ transcriptModifiedAt: new Date("2026-11-22T11:50:00.001Z") }))).toBeNull();
    expect(decideRecovery(input({ transcriptModifiedAt: new Date("2026-11-22T11:50:00.000Z") }))).toBeNull();
    expect(decideRecovery(input({ transcriptModifiedAt: new Date("2026-11-22T11:49:59.999Z") }))).not.toBeNull();
  });

  it("nothing when the newest session ended, even if an older one did not", () => {
    const sessions = {
      sessions: [session({ endedAt: "2026-11-22T11:40:00.000Z", endReason: "exit" }), session({ sessionId: "s-old" })],
    };
    expect(decideRecovery(input({ sessions }))).toBeNull();
  });

  it("nothing without sessions, or without a checkpoint", () => {
    expect(decideRecovery(input({ sessions: null }))).toBeNull();
    expect(decideRecovery(input({ sessions: { sessions: [] } }))).toBeNull();
    expect(decideRecovery(input({ checkpoint: null }))).toBeNull();
  });

  it("a checkpoint older than the session's start, or of another session, does not recover it", () => {
    expect(decideRecovery(input({ checkpoint: { ...checkpoint, createdAt: "2026-11-22T09:59:59.000Z" } }))).toBeNull();
    expect(decideRecovery(input({ checkpoint: { ...checkpoint, sessionId: "s-old" } }))).toBeNull();
  });

  it("a session whose start time is unknown takes any checkpoint of its own", () => {
    const sessions = { sessions: [session({ startedAt: null })] };
    expect(decideRecovery(input({ sessions }))?.checkpointId).toBe(checkpoint.id);
  });

  it("the status line holds the exact command", () => {
    const line = formatRecoveryLine({ sessionId: "s-new", checkpointId: checkpoint.id, lastActivity: "t" });
    expect(line).toContain(`ctx restore --checkpoint ${checkpoint.id}`);
    expect(line).toContain("s-new");
  });
});
