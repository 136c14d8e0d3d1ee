import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KEY_FACTS } from "../../../tests/fixtures/summaries/key-facts.ts";
import { emptyContextState } from "../../../tests/helpers/context-state.ts";
import { extractContextState } from "../context/extract.ts";
import type { ContextState } from "../context/schema.ts";
import { parseTranscriptLine } from "../transcript/entries.ts";
import { SMART_CONTEXT_PRESET } from "./assemble.ts";
import { renderConversationPart, renderRestoreWithConversation } from "./conversation-part.ts";

const fixtureState = (transcript: string): ContextState => {
  const text = readFileSync(new URL(`../../../tests/fixtures/${transcript}`, import.meta.url), "utf8");
  const lines = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(parseTranscriptLine);
  return extractContextState(lines, {
    sessionId: "fixture",
    projectRoot: "/repo",
    transcriptPath: transcript,
    now: new Date("2026-11-22T10:00:00Z"),
  });
};

const message = (uuid: string, role: "user" | "assistant", text: string) => ({
  uuid,
  role,
  kind: role === "user" ? ("prompt" as const) : ("reply" as const),
  text,
  timestamp: null,
  tokens: null,
});

describe("the conversation part of a restore, from summaries", () => {
  it("stays within every cap and keeps the facts of the real fixtures the extractive checklist expects", () => {
    for (const fixture of KEY_FACTS) {
      const state = fixtureState(fixture.transcript);
      for (const cap of [2_500, 10_000]) {
        const { text } = renderRestoreWithConversation(
          state,
          { mode: "summary", maxChars: cap },
          {},
          SMART_CONTEXT_PRESET,
        );
        expect(text.length, `${fixture.transcript} at ${cap}`).toBeLessThanOrEqual(cap);
      }
      const { text, part } = renderRestoreWithConversation(
        state,
        { mode: "summary", maxChars: Number.MAX_SAFE_INTEGER },
        {},
        SMART_CONTEXT_PRESET,
      );
      const lower = text.toLowerCase();
      const kept = fixture.facts.filter((fact) => lower.includes(fact.toLowerCase()));
      // Uncapped, the assembly holds the recent messages verbatim and the rest summarised: the facts stay.
      expect(
        kept.length / fixture.facts.length,
        `${fixture.transcript}: ${fixture.facts.filter((f) => !kept.includes(f))}`,
      ).toBeGreaterThanOrEqual(0.8);
      expect(part?.recent).toBeGreaterThan(0);
    }
  });

  it("uses a stored summary made from the same text, and summarises the others extractively", () => {
    const long = "We compared three retry strategies in depth. ".repeat(40);
    const state = emptyContextState();
    state.conversation = Array.from({ length: 30 }, (_, i) =>
      message(`m${i}`, i % 2 === 0 ? "user" : "assistant", `${i}: ${long}`),
    );
    const stored = {
      m0: {
        summary: "STORED m0",
        provider: "anthropic" as const,
        model: "m",
        createdAt: "x",
        algorithm: "llm-batch-1",
        sourceChars: state.conversation[0]?.text.length ?? 0,
      },
      m1: {
        summary: "STALE m1",
        provider: "anthropic" as const,
        model: "m",
        createdAt: "x",
        algorithm: "llm-batch-1",
        sourceChars: 3,
      },
    };
    const part = renderConversationPart(
      state,
      stored,
      { ...SMART_CONTEXT_PRESET, recentMessages: 5, middleMessages: 30 },
      100_000,
    );
    expect(part).toMatchObject({ recent: 5, summarized: 25, folded: 0, storedSummaries: 1 });
    expect(part.text).toContain("[user] STORED m0");
    expect(part.text).not.toContain("STALE m1");
    expect(
      part.text.startsWith(
        "## Conversation since the last compaction (assembled: 5 recent verbatim, 25 summarised, 0 older folded)",
      ),
    ).toBe(true);
  });

  it("gives nothing when there is no conversation or no room", () => {
    expect(renderConversationPart(emptyContextState(), {}, SMART_CONTEXT_PRESET, 10_000).text).toBe("");
    const state = emptyContextState();
    state.conversation = [message("a", "user", "hello there")];
    expect(renderConversationPart(state, {}, SMART_CONTEXT_PRESET, 100).text).toBe("");
    expect(renderConversationPart(state, {}, SMART_CONTEXT_PRESET, 1_000).text).toContain("[user] hello there");
  });
});
