// The session's handoff between the server's measurements and the next tick or Stop: notes joined in order, the
// user's line taken apart from the model's note, nothing left behind, and a file that is not the session's ignored.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { guardDir } from "./guard-store.ts";
import {
  awaitServerMeasurement,
  joinReplies,
  readTickHandoff,
  takeHandedOn,
  takeUserLine,
  tickHandoffPath,
  updateTickHandoff,
} from "./tick-handoff.ts";

const SESSION = "5e55a0a0-0000-4000-8000-000000000001";

function project(): string {
  const root = join(mkdtempSync(join(tmpdir(), "ctx-tick-handoff-")), "repo");
  mkdirSync(join(root, ".ctx"), { recursive: true });
  return root;
}

/** A measurement that spoke, as the server hands it on. */
const speak = (root: string, additionalContext: string, systemMessage: string | null) =>
  updateTickHandoff(root, SESSION, (current) => ({
    ...current,
    note: joinReplies(current.note, { additionalContext, systemMessage }),
  }));

describe("the tick handoff", () => {
  it("passes notes on once, the user's line apart, and leaves no file behind", () => {
    const root = project();
    expect(takeHandedOn(root, SESSION)).toEqual({ note: null, failures: [] });
    speak(root, "warning", null);
    speak(root, "yellow", "ctx: context yellow");
    expect(takeUserLine(root, SESSION)).toBe("ctx: context yellow");
    expect(takeUserLine(root, SESSION)).toBeNull();
    expect(takeHandedOn(root, SESSION)).toEqual({
      note: { additionalContext: "warning\n\nyellow", systemMessage: null },
      failures: [],
    });
    expect(existsSync(tickHandoffPath(root, SESSION))).toBe(false);
  });

  it("ignores another session's file and a malformed one; a mark without its server is abandoned", async () => {
    const root = project();
    mkdirSync(guardDir(root), { recursive: true });
    writeFileSync(
      tickHandoffPath(root, SESSION),
      JSON.stringify({ sessionId: "other", note: { additionalContext: "x" } }),
    );
    expect(readTickHandoff(root, SESSION)).toBeNull();
    // The file's schema (core/guard/tick-handoff-schema.ts): a measuring mark without a whole pid is no handoff.
    const marked = { sessionId: SESSION, measuring: { pid: 1.5, until: 1 }, note: null, failures: [] };
    writeFileSync(tickHandoffPath(root, SESSION), JSON.stringify(marked));
    expect(readTickHandoff(root, SESSION)).toBeNull();
    writeFileSync(tickHandoffPath(root, SESSION), JSON.stringify({ ...marked, measuring: { pid: 1, until: 1 } }));
    expect(readTickHandoff(root, SESSION)?.measuring).toEqual({ pid: 1, until: 1 });
    writeFileSync(tickHandoffPath(root, SESSION), "{not json");
    expect(await awaitServerMeasurement(root, SESSION)).toBe("none");
    updateTickHandoff(root, SESSION, (current) => ({ ...current, measuring: { pid: 1, until: Date.now() + 60_000 } }));
    expect(await awaitServerMeasurement(root, SESSION, { isAlive: () => false })).toBe("abandoned");
    expect(readTickHandoff(root, SESSION)).toBeNull();
    updateTickHandoff(root, SESSION, (current) => ({ ...current, measuring: { pid: 1, until: Date.now() - 1 } }));
    expect(await awaitServerMeasurement(root, SESSION, { isAlive: () => true })).toBe("abandoned");
    // A live server still at work past the caller's own bound: left to finish, its mark kept.
    updateTickHandoff(root, SESSION, (current) => ({ ...current, measuring: { pid: 1, until: Date.now() + 60_000 } }));
    expect(await awaitServerMeasurement(root, SESSION, { isAlive: () => true, maxWaitMs: 0 })).toBe("busy");
    expect(readTickHandoff(root, SESSION)?.measuring?.pid).toBe(1);
  });
});
