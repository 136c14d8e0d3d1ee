import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { CtxError } from "../errors.ts";
import { readBridgeSession } from "../store/bridge/session-store.ts";
import type { ClaudeTurnRequest } from "./claude-runner.ts";
import { answerMessage, type ConversationDeps } from "./conversation.ts";

const message = (text: string, id = text.slice(0, 8)): JournalMessage => ({
  id,
  at: "2026-01-01T00:00:00.000Z",
  key: "3:42",
  userId: "42",
  username: "ann",
  channelId: "3",
  channelName: "dev",
  postId: null,
  text,
  bytes: Buffer.byteLength(text),
});

interface Script {
  calls: ClaudeTurnRequest[];
  warnings: string[];
  deps: ConversationDeps;
}

async function script(answer: (request: ClaudeTurnRequest, call: number) => { text: string; tokens: number } | Error) {
  const dir = await mkdtemp(join(tmpdir(), "ctx-conversation-"));
  const calls: ClaudeTurnRequest[] = [];
  const warnings: string[] = [];
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const deps: ConversationDeps = {
    sessionsDir: dir,
    limits: { softLimitTokens: 120_000, hardLimitTokens: 180_000, idleMinutes: 30 },
    inputChunkChars: 15_000,
    windowTokens: 200_000,
    maxInputBytes: 1_048_576,
    runClaude: async (request) => {
      calls.push(request);
      const result = answer(request, calls.length);
      if (result instanceof Error) throw result;
      return {
        text: result.text,
        sessionId: request.resume ?? `session-${calls.length}`,
        usage: { input_tokens: result.tokens },
        contextTokens: result.tokens,
        durationMs: 1,
      };
    },
    summarize: async (session) => ({
      summary: `summary of ${session.history.length} messages: ${session.history.map((h) => h.text.slice(0, 60)).join(" | ")}`,
      provider: "extractive",
      warnings: [],
    }),
    redact: (text) => text.replaceAll("sk-secret", "[REDACTED]"),
    now: () => {
      clock += 1_000;
      return new Date(clock);
    },
    warn: (line) => warnings.push(line),
    queueInfo: () => ({ queuedHere: 0, queuedTotal: 0, running: 1, pendingParts: 0, oldestPendingMs: null }),
  };
  return { calls, warnings, deps } satisfies Script;
}

describe("answerMessage", () => {
  it("posts the partial answer and the error when a later part fails", async () => {
    const { deps, calls } = await script((_request, call) =>
      call === 2 ? new CtxError("PROVIDER_FAILED", "Claude exited with code 1") : { text: `ok ${call}`, tokens: 1_000 },
    );
    const answer = await answerMessage(message("p".repeat(40_000)), deps);
    expect(calls).toHaveLength(2);
    expect(answer.failed).toBe(true);
    expect(answer.text).toContain("ok 1");
    expect(answer.text).toContain("Part 2 of 3 of your message failed (Claude exited with code 1)");
    expect(answer.text).toContain("covers parts 1-1 only");
  });

  it("rolls a long message over to a new session before a part would start past the hard limit", async () => {
    const { deps, calls } = await script((_request, call) => ({
      text: `ok ${call}`,
      tokens: call === 1 ? 178_000 : 5_000,
    }));
    await answerMessage(message("first"), deps);
    const answer = await answerMessage(message("q".repeat(40_000), "long"), deps);
    // First the short message (call 1), then part 1 would start at 178,000 + 3,750 > 180,000.
    expect(answer.rolledOver).toBe("hard-limit");
    expect(calls[1]?.resume).toBeNull();
    expect(calls[1]?.appendSystemPrompt).toContain("summary of 2 messages: first");
    expect(calls[2]?.resume).toBe("session-2");
    expect(calls[2]?.appendSystemPrompt).toBe(calls[1]?.appendSystemPrompt);
  });

  it("keeps the summary on /new, drops everything on /forget, and stores text redacted", async () => {
    const { deps, calls } = await script(() => ({ text: "noted", tokens: 500 }));
    await answerMessage(message("my key is sk-secret, prefer tabs"), deps);
    const stored = await readBridgeSession(deps.sessionsDir, "3:42");
    expect(stored?.history[0]?.text).toBe("my key is [REDACTED], prefer tabs");
    expect(calls[0]?.prompt).toBe("my key is sk-secret, prefer tabs");
    expect((await answerMessage(message("/new"), deps)).text).toContain("Started a fresh Claude session");
    const renewed = await readBridgeSession(deps.sessionsDir, "3:42");
    expect(renewed?.claudeSessionId).toBeNull();
    expect(renewed?.summary).toContain("prefer tabs");
    await answerMessage(message("next"), deps);
    expect(calls[1]?.resume).toBeNull();
    expect(calls[1]?.appendSystemPrompt).toContain("prefer tabs");
    expect((await answerMessage(message("/forget"), deps)).text).toContain("Forgotten");
    expect(await readBridgeSession(deps.sessionsDir, "3:42")).toBeNull();
  });

  it("continues with a folded history and a warning when summarising fails", async () => {
    const { deps, calls, warnings } = await script(() => ({ text: "fine", tokens: 130_000 }));
    deps.summarize = async () => {
      throw new Error("provider down");
    };
    await answerMessage(message("remember the blue theme"), deps);
    const answer = await answerMessage(message("and now?"), deps);
    expect(answer.rolledOver).toBe("soft-limit");
    expect(warnings.join("\n")).toContain("failed, folding its history instead: provider down");
    expect(calls[1]?.appendSystemPrompt).toContain("remember the blue theme");
  });

  it("answers refusals without running Claude", async () => {
    const { deps, calls } = await script(() => ({ text: "never", tokens: 1 }));
    const tooLarge = await answerMessage({ ...message(""), bytes: 2_000_000, refused: "too-large" }, deps);
    expect(tooLarge.text).toContain("1.91 MiB (2,000,000 bytes), over this bridge's limit of 1.00 MiB");
    expect((await answerMessage(message("/status"), deps)).text).toContain("No conversation yet");
    expect(calls).toHaveLength(0);
  });
});
