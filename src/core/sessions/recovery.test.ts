import { describe, expect, it } from "vitest";
import {
  type CheckpointRef,
  crashedSessions,
  decideRecovery,
  formatRecoveryLine,
  hasSessionCrashed,
  type RecoveryInput,
} from "./recovery.ts";
import type { SessionRecord } from "./seen.ts";

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
const quiet = new Date("2026-11-22T11:30:00.000Z");
const recent = new Date("2026-11-22T11:59:00.000Z");
const checkpoint = { id: "20261122T110000000Z-abcdef", sessionId: "s-new", createdAt: "2026-11-22T11:00:00.000Z" };
const alivePids = new Set([100]);
const isAlive = (pid: number) => alivePids.has(pid);

const checkpointsOf = (...refs: CheckpointRef[]) => new Map(refs.map((ref) => [ref.sessionId, ref]));

const input = (overrides: Partial<RecoveryInput> = {}): RecoveryInput => ({
  sessions: { sessions: [session(), session({ sessionId: "s-old", endedAt: "2026-11-21T10:00:00.000Z" })] },
  transcriptModifiedAt: new Map([["s-new", quiet]]),
  checkpoints: checkpointsOf(checkpoint),
  now,
  isAlive,
  ...overrides,
});

describe("hasSessionCrashed", () => {
  const evidence = { transcriptModifiedAt: recent, now, isAlive };

  it("a recorded pid decides: alive is running however quiet, gone is crashed however recent", () => {
    expect(hasSessionCrashed(session({ pid: 100 }), { ...evidence, transcriptModifiedAt: null })).toBe(false);
    expect(hasSessionCrashed(session({ pid: 100 }), { ...evidence, transcriptModifiedAt: quiet })).toBe(false);
    expect(hasSessionCrashed(session({ pid: 200 }), evidence)).toBe(true);
  });

  it("without a pid (or with one that names no single process), a transcript quiet for > 10 minutes", () => {
    for (const pid of [undefined, null, 0, -1]) {
      const record = session(pid === undefined ? {} : { pid });
      expect(hasSessionCrashed(record, evidence)).toBe(false);
      expect(hasSessionCrashed(record, { ...evidence, transcriptModifiedAt: quiet })).toBe(true);
    }
  });

  it("a session with its end recorded never crashed, and its pid is not looked up", () => {
    const never = () => {
      throw new Error("looked up");
    };
    const ended = session({ pid: 200, endedAt: "2026-11-22T11:00:00.000Z" });
    expect(hasSessionCrashed(ended, { ...evidence, transcriptModifiedAt: null, isAlive: never })).toBe(false);
  });
});

describe("crashedSessions", () => {
  it("looks at every session without an end, newest first, not only the newest", () => {
    const sessions = {
      sessions: [
        session({ sessionId: "live", pid: 100 }),
        session({ sessionId: "dead", pid: 200 }),
        session({ sessionId: "ended", endedAt: "2026-11-22T11:00:00.000Z" }),
        session({ sessionId: "old-quiet" }),
        session({ sessionId: "old-busy" }),
      ],
    };
    const transcriptModifiedAt = new Map([
      ["live", quiet],
      ["dead", recent],
      ["old-quiet", quiet],
      ["old-busy", recent],
    ]);
    const crashed = crashedSessions({ sessions, transcriptModifiedAt, now, isAlive });
    expect(crashed.map((s) => s.sessionId)).toEqual(["dead", "old-quiet"]);
  });
});

describe("decideRecovery", () => {
  it("offers the checkpoint when a session without a pid has no end and its transcript has been quiet for > 10 minutes", () => {
    expect(decideRecovery(input())).toEqual({
      sessionId: "s-new",
      checkpointId: checkpoint.id,
      lastActivity: "2026-11-22T11:30:00.000Z",
    });
  });

  it("an idle but live session (its pid answers) is not offered, however long it has been quiet", () => {
    const sessions = { sessions: [session({ pid: 100 })] };
    expect(decideRecovery(input({ sessions, transcriptModifiedAt: new Map([["s-new", null]]) }))).toBeNull();
    expect(decideRecovery(input({ sessions }))).toBeNull();
  });

  it("a session whose process is gone is offered at once, with its transcript's last change", () => {
    const sessions = { sessions: [session({ pid: 200 })] };
    expect(decideRecovery(input({ sessions, transcriptModifiedAt: new Map([["s-new", recent]]) }))).toEqual({
      sessionId: "s-new",
      checkpointId: checkpoint.id,
      lastActivity: recent.toISOString(),
    });
  });

  it("a crashed session that is not the newest is found behind a live one", () => {
    const older = { ...checkpoint, id: "20261122T103000000Z-older1", sessionId: "s-crashed" };
    const sessions = {
      sessions: [
        session({ pid: 100 }),
        session({ sessionId: "s-crashed", pid: 200, startedAt: "2026-11-22T09:00:00.000Z" }),
      ],
    };
    const recovery = decideRecovery(input({ sessions, checkpoints: checkpointsOf(checkpoint, older) }));
    expect(recovery).toEqual({ sessionId: "s-crashed", checkpointId: older.id, lastActivity: older.createdAt });
  });

  it("the newest crashed session with a checkpoint of its own; a newer crashed one without is passed over", () => {
    const mid = {
      ...checkpoint,
      id: "20261122T103000000Z-mid001",
      sessionId: "s-mid",
      createdAt: "2026-11-22T10:30:00.000Z",
    };
    const old = {
      ...checkpoint,
      id: "20261122T102000000Z-old001",
      sessionId: "s-old",
      createdAt: "2026-11-22T10:20:00.000Z",
    };
    const sessions = {
      sessions: [
        session({ pid: 200 }),
        session({ sessionId: "s-mid", pid: 201, startedAt: "2026-11-22T09:00:00.000Z" }),
        session({ sessionId: "s-old", pid: 202, startedAt: "2026-11-22T08:00:00.000Z" }),
      ],
    };
    expect(decideRecovery(input({ sessions, checkpoints: checkpointsOf(mid, old) }))?.sessionId).toBe("s-mid");
  });

  it("a transcript that is gone counts as quiet; the checkpoint's time is then the last activity", () => {
    expect(decideRecovery(input({ transcriptModifiedAt: new Map() }))?.lastActivity).toBe(checkpoint.createdAt);
    expect(decideRecovery(input({ transcriptModifiedAt: new Map([["s-new", null]]) }))?.lastActivity).toBe(
      checkpoint.createdAt,
    );
  });

  it("without a pid, nothing while the transcript changed in the last 10 minutes (the session may still be running)", () => {
    const at = (iso: string) => input({ transcriptModifiedAt: new Map([["s-new", new Date(iso)]]) });
    expect(decideRecovery(at("2026-11-22T11:50:00.001Z"))).toBeNull();
    expect(decideRecovery(at("2026-11-22T11:50:00.000Z"))).toBeNull();
    expect(decideRecovery(at("2026-11-22T11:49:59.999Z"))).not.toBeNull();
  });

  it("nothing for a session whose end was recorded", () => {
    const sessions = { sessions: [session({ endedAt: "2026-11-22T11:40:00.000Z", endReason: "exit", pid: 200 })] };
    expect(decideRecovery(input({ sessions }))).toBeNull();
  });

  it("nothing without sessions, or without a checkpoint", () => {
    expect(decideRecovery(input({ sessions: null }))).toBeNull();
    expect(decideRecovery(input({ sessions: { sessions: [] } }))).toBeNull();
    expect(decideRecovery(input({ checkpoints: new Map() }))).toBeNull();
  });

  it("a checkpoint older than the session's start, or of another session, does not recover it", () => {
    const before = { ...checkpoint, createdAt: "2026-11-22T09:59:59.000Z" };
    expect(decideRecovery(input({ checkpoints: checkpointsOf(before) }))).toBeNull();
    const misfiled = new Map([["s-new", { ...checkpoint, sessionId: "s-old" }]]);
    expect(decideRecovery(input({ checkpoints: misfiled }))).toBeNull();
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
