import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { planPromptParts } from "../core/bridge/messages.ts";
import { CtxError } from "../errors.ts";
import { readBridgeSession } from "../store/bridge/session-store.ts";
import { chatCommandFor } from "./chat-commands.ts";
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
  };
  return { calls, warnings, deps } satisfies Script;
}

/** A chat command, answered as the work answers it: before the conversation, from the table (chat-commands.ts). */
async function command(text: string, deps: ConversationDeps): Promise<string> {
  const handler = chatCommandFor(message(text));
  if (handler === null) throw new Error(`${text} is no chat command`);
  const queue = { queuedHere: 0, queuedTotal: 0, running: 1, pendingParts: 0, oldestPendingMs: null };
  return handler(message(text), { ...deps, windowTokens: 200_000, queue });
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
    expect(await command("/new", deps)).toContain("Started a fresh Claude session");
    const renewed = await readBridgeSession(deps.sessionsDir, "3:42");
    expect(renewed?.claudeSessionId).toBeNull();
    expect(renewed?.summary).toContain("prefer tabs");
    await answerMessage(message("next"), deps);
    expect(calls[1]?.resume).toBeNull();
    expect(calls[1]?.appendSystemPrompt).toContain("prefer tabs");
    expect(await command("/forget", deps)).toContain("Forgotten");
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
    expect(await command("/status", deps)).toContain("No conversation yet");
    expect(calls).toHaveLength(0);
  });
});

/**
 * Issue #22 break 2: a session at 99,755 tokens, a 40,010-character paste in 3 parts. The fake Claude keeps what each
 * of its sessions was given (seed and prompts) and answers the last part with the whole answer only when that
 * session holds every part and the "answer after part 3" instruction.
 */
describe("answerMessage: the parts of a long message stay together", () => {
  const paste = "0123456789".repeat(4_001);
  const parts = planPromptParts(paste, 15_000);
  const heard = new Map<string, string[]>();
  const sessionOf = (request: ClaudeTurnRequest, call: number) => request.resume ?? `session-${call}`;
  const reply = (request: ClaudeTurnRequest, call: number, tokens: (call: number) => number) => {
    const id = sessionOf(request, call);
    const seen = [...(heard.get(id) ?? [request.appendSystemPrompt ?? ""]), request.prompt];
    heard.set(id, seen);
    if (!request.prompt.includes("(part 3 of 3)")) return { text: `ack ${call} in ${id}`, tokens: tokens(call) };
    const held = seen.join("\n");
    const whole =
      parts.every((part) => held.includes(part.prompt)) && held.includes("answer the whole message after part 3 of 3");
    return { text: whole ? "THE WHOLE ANSWER" : "an answer without part 1", tokens: tokens(call) };
  };

  it("plans 40,010 characters as 3 parts", () => {
    expect(parts.map((part) => part.chars)).toEqual([15_000, 15_000, 10_010]);
  });

  it("rolls over before part 1 when the real usage plus all parts and their replies will not fit", async () => {
    heard.clear();
    // soft = hard = 110,000: 99,755 + the parts' 10,066 estimated tokens fit; with the two replies between them not.
    const { deps, calls } = await script((request, call) => reply(request, call, (n) => (n === 1 ? 99_755 : 5_000)));
    deps.limits = { softLimitTokens: 110_000, hardLimitTokens: 110_000, idleMinutes: 30 };
    await answerMessage(message("first"), deps);
    const answer = await answerMessage(message(paste, "long"), deps);
    expect(answer.rolledOver).toBe("hard-limit");
    expect(calls[1]?.resume).toBeNull();
    expect(calls[1]?.prompt).toBe(parts[0]?.prompt);
    expect(calls.slice(2).map((call) => call.resume)).toEqual(["session-2", "session-2"]);
    expect(answer.text).toContain("THE WHOLE ANSWER");
  });

  it("sends the message again from part 1 in the new session when part 1 took the context past the hard limit", async () => {
    heard.clear();
    const usage = new Map([
      [1, 99_755],
      [2, 179_298],
    ]);
    const { deps, calls, warnings } = await script((request, call) =>
      reply(request, call, (n) => usage.get(n) ?? 20_000 + n),
    );
    await answerMessage(message("first"), deps);
    const answer = await answerMessage(message(paste, "long"), deps);
    // Part 1 went to the old session (99,755 + 10,066 + 2,000 fit under the soft limit); 179,298 + parts 2-3 do not.
    expect(calls[1]?.resume).toBe("session-1");
    expect(answer.rolledOver).toBe("hard-limit");
    const fresh = calls.slice(2);
    expect(fresh.map((call) => call.resume)).toEqual([null, "session-3", "session-3"]);
    expect(fresh.map((call) => call.prompt)).toEqual(parts.map((part) => part.prompt));
    expect(fresh[0]?.prompt).toContain("answer the whole message after part 3 of 3");
    for (const call of fresh) expect(call.appendSystemPrompt).toContain("summary of 2 messages: first");
    expect(answer.text).toContain("THE WHOLE ANSWER");
    expect(answer.text).not.toContain("without part 1");
    // The old session's acknowledgement of part 1 is not part of the reply: part 1 is acknowledged once.
    expect(answer.text).not.toContain("in session-1");
    expect(answer.failed).toBe(false);
    expect(warnings.join("\n")).toContain("sending the message again from part 1");
    const stored = await readBridgeSession(deps.sessionsDir, "3:42");
    expect(stored?.claudeSessionId).toBe("session-3");
    expect(stored?.history.map((entry) => entry.role)).toEqual(["user", "assistant"]);
    expect(stored?.history[0]?.chars).toBe(40_010);
  });

  it("stops with a notice, and sends no part past the hard limit, when the message overflows a session it began", async () => {
    heard.clear();
    const { deps, calls } = await script((request, call) => reply(request, call, () => 179_298));
    const answer = await answerMessage(message(paste, "long"), deps);
    expect(calls).toHaveLength(1);
    expect(answer.failed).toBe(true);
    expect(answer.text).toContain("did not fit in one Claude session");
    expect(answer.text).toContain("parts 1-1 of 3");
  });

  it("refuses a message that no session could hold, without running Claude", async () => {
    const { deps, calls } = await script(() => ({ text: "never", tokens: 1 }));
    const answer = await answerMessage(message("w".repeat(800_000), "huge"), deps);
    expect(calls).toHaveLength(0);
    expect(answer.text).toContain("more than one Claude session can hold");
    expect(answer.text).toContain("bridge.hardLimitTokens");
  });
});
