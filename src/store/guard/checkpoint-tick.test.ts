// The rolling checkpoint (PostToolUse and Stop) against a temp project: sessions sharing a project each get their
// checkpoints, and a counter file from before per-session counts is read, not a crash.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { assistantText, assistantToolUse, userPrompt } from "../../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { ContextStateSchema } from "../../core/context/extract.ts";
import { silentLogger } from "../../log.ts";
import { listCheckpoints, readCheckpoint } from "../snapshots/checkpoints.ts";
import { checkpointTick, type TickDeps } from "./checkpoint-tick.ts";

let base: string;
let root: string;
let clock: number;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "ctx-checkpoint-tick-"));
  root = join(base, "repo");
  mkdirSync(join(root, ".ctx"), { recursive: true });
  clock = Date.parse("2026-11-22T10:00:00.000Z");
});

const deps = (): TickDeps => ({
  // Each call a second later, so checkpoint ids (which carry their time) never collide.
  now: () => {
    clock += 1000;
    return new Date(clock);
  },
  logger: silentLogger,
  projectRoot: root,
  config: defaultConfig(),
});

function transcriptOf(sessionId: string): string {
  const path = join(base, `${sessionId}.jsonl`);
  writeFileSync(path, "");
  return path;
}

/** One exchange (a user and an assistant message), then the tick the hook gets after it. */
async function exchange(sessionId: string, transcript: string, turn: number): Promise<void> {
  const lines = { sessionId, cwd: root };
  const text = `${userPrompt(lines, `question ${turn}`)}\n${assistantText(lines, `${sessionId}-${turn}`, `answer ${turn}`)}\n`;
  appendFileSync(transcript, text);
  await checkpointTick({ session_id: sessionId, transcript_path: transcript }, deps());
}

async function checkpointSessions(): Promise<string[]> {
  const sessions: string[] = [];
  for (const entry of await listCheckpoints(root)) {
    const checkpoint = await readCheckpoint(root, entry.id, ContextStateSchema);
    if (checkpoint !== null) sessions.push(checkpoint.meta.sessionId);
  }
  return sessions.sort();
}

describe("checkpoint tick", () => {
  it("two sessions alternating in one project both get rolling checkpoints", async () => {
    const a = transcriptOf("sess-a");
    const b = transcriptOf("sess-b");
    // 2 messages per tick, interval 20: 24 ticks each (48 messages) is past two intervals.
    for (let turn = 0; turn < 24; turn++) {
      await exchange("sess-a", a, turn);
      await exchange("sess-b", b, turn);
    }
    expect(await checkpointSessions()).toEqual(["sess-a", "sess-a", "sess-b", "sess-b"]);
    const mark = JSON.parse(readFileSync(join(root, ".ctx", "checkpoint-mark.json"), "utf8"));
    expect(Object.keys(mark.sessions).sort()).toEqual(["sess-a", "sess-b"]);
  });

  it("a counter file from before per-session counts carries on counting for its session", async () => {
    const a = transcriptOf("sess-a");
    await exchange("sess-a", a, 0);
    const size = readFileSync(a).length;
    const markPath = join(root, ".ctx", "checkpoint-mark.json");
    writeFileSync(markPath, JSON.stringify({ sessionId: "sess-a", offset: size, messages: 18 }));
    await exchange("sess-a", a, 1);
    expect(await listCheckpoints(root)).toHaveLength(1);
    expect(JSON.parse(readFileSync(markPath, "utf8")).sessions["sess-a"]).toMatchObject({ messages: 0 });
  });

  it("a damaged counter file starts counting afresh", async () => {
    const a = transcriptOf("sess-a");
    writeFileSync(join(root, ".ctx", "checkpoint-mark.json"), "{not json");
    await exchange("sess-a", a, 0);
    const mark = JSON.parse(readFileSync(join(root, ".ctx", "checkpoint-mark.json"), "utf8"));
    expect(mark.sessions["sess-a"]).toMatchObject({ offset: readFileSync(a).length, messages: 0 });
  });

  it("looks for a tool call no tick followed only when asked (Stop), never after a tool call", async () => {
    const transcript = transcriptOf("sess-t");
    const lines = { sessionId: "sess-t", cwd: root };
    appendFileSync(
      transcript,
      `${userPrompt(lines, "list")}\n${assistantToolUse(lines, "t-1", "Bash", { command: "ls" })}\n`,
    );
    const input = { session_id: "sess-t", transcript_path: transcript };
    // Never ticked: the tail is read only for Stop.
    expect(await checkpointTick(input, deps())).toEqual({ untickedToolCall: false });
    appendFileSync(transcript, `${assistantToolUse(lines, "t-2", "Bash", { command: "pwd" })}\n`);
    expect(await checkpointTick(input, deps(), { findUntickedToolCall: true })).toEqual({ untickedToolCall: true });
    // Ticked since, and grown by text only: nothing unticked.
    appendFileSync(transcript, `${assistantText(lines, "t-3", "done")}\n`);
    expect(await checkpointTick(input, deps(), { findUntickedToolCall: true })).toEqual({ untickedToolCall: false });
  });
});
