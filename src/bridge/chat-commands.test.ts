// The chat commands' table: which messages are commands (a refusal or a prompt never is), and what each answers
// from the session file and the queue it is given.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { newBridgeSession } from "../core/bridge/session.ts";
import { readBridgeSession, updateBridgeSession } from "../store/bridge/session-store.ts";
import { CHAT_COMMANDS, type ChatCommandDeps, chatCommandFor } from "./chat-commands.ts";

const message = (text: string, refused?: JournalMessage["refused"]): JournalMessage => ({
  id: "m1",
  at: "2026-01-01T00:00:00.000Z",
  key: "3:42",
  userId: "42",
  username: "ann",
  channelId: "3",
  channelName: "dev",
  postId: null,
  text,
  bytes: Buffer.byteLength(text),
  ...(refused === undefined ? {} : { refused }),
});

async function deps(): Promise<ChatCommandDeps> {
  return {
    sessionsDir: await mkdtemp(join(tmpdir(), "ctx-chat-commands-")),
    windowTokens: 200_000,
    limits: { softLimitTokens: 120_000 },
    queue: { queuedHere: 2, queuedTotal: 5, running: 1, pendingParts: 0, oldestPendingMs: null },
    summarize: async (session) => ({ summary: `summary of ${session.key}`, provider: "extractive", warnings: [] }),
    redact: (text) => text,
    now: () => new Date("2026-01-01T00:01:00Z"),
    warn: () => {},
  };
}

describe("chatCommandFor", () => {
  it("finds /status, /new and /forget alone on the message, and nothing else", () => {
    expect(chatCommandFor(message(" /STATUS "))).toBe(CHAT_COMMANDS.status);
    expect(chatCommandFor(message("/new"))).toBe(CHAT_COMMANDS.new);
    expect(chatCommandFor(message("/forget"))).toBe(CHAT_COMMANDS.forget);
    expect(chatCommandFor(message("/status please"))).toBeNull();
    expect(chatCommandFor(message("hello"))).toBeNull();
    expect(chatCommandFor(message(""))).toBeNull();
  });

  it("never takes a refused message for a command: the conversation tells the person why it was refused", () => {
    expect(chatCommandFor(message("/status", "wrong-content-type"))).toBeNull();
  });
});

describe("CHAT_COMMANDS", () => {
  it("/status shows the queue it is given, with or without a conversation", async () => {
    const given = await deps();
    expect(await CHAT_COMMANDS.status(message("/status"), given)).toBe(
      "No conversation yet: your next message starts one.\nQueue: 2 waiting here, 5 in the bridge, 1 running.",
    );
    const at = new Date("2026-01-01T00:00:00Z");
    const session = {
      ...newBridgeSession({ key: "3:42", userId: "42", username: "ann", channelId: "3", channelName: "dev" }, at),
      contextTokens: 50_000,
    };
    await updateBridgeSession(given.sessionsDir, "3:42", () => session);
    const text = await CHAT_COMMANDS.status(message("/status"), given);
    expect(text).toMatch(
      /^Context: 50,000 of 200,000 tokens \(25%\); summarised and continued in a new Claude session past 120,000\./,
    );
    expect(text).toContain("Queue: 2 waiting here, 5 in the bridge, 1 running.");
  });

  it("/new and /forget without a conversation say so and write nothing", async () => {
    const given = await deps();
    expect(await CHAT_COMMANDS.new(message("/new"), given)).toBe(
      "Started fresh: your next message begins a new Claude session.",
    );
    expect(await CHAT_COMMANDS.forget(message("/forget"), given)).toBe(
      "There was nothing to forget: this conversation had no saved session.",
    );
    expect(await readBridgeSession(given.sessionsDir, "3:42")).toBeNull();
  });

  it("/new summarises the conversation into a fresh Claude session; /forget then drops it", async () => {
    const given = await deps();
    const at = new Date("2026-01-01T00:00:00Z");
    const session = {
      ...newBridgeSession({ key: "3:42", userId: "42", username: "ann", channelId: "3", channelName: "dev" }, at),
      claudeSessionId: "claude-1",
    };
    await updateBridgeSession(given.sessionsDir, "3:42", () => session);
    expect(await CHAT_COMMANDS.new(message("/new"), given)).toBe(
      "Started a fresh Claude session; the summary of this conversation (15 characters) is kept and carried into it.",
    );
    const renewed = await readBridgeSession(given.sessionsDir, "3:42");
    expect(renewed?.claudeSessionId).toBeNull();
    expect(renewed?.summary).toBe("summary of 3:42");
    expect(await CHAT_COMMANDS.forget(message("/forget"), given)).toContain("Forgotten");
    expect(await readBridgeSession(given.sessionsDir, "3:42")).toBeNull();
  });
});
