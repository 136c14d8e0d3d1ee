import { describe, expect, it } from "vitest";
import { EXTRACTIVE_ALGORITHM } from "./extractive.ts";
import type { SummaryMessage } from "./messages.ts";
import { messagesToSummarize, type Sidecar, type SummaryRecord } from "./sidecar.ts";

const messages: SummaryMessage[] = ["a", "b", "c", "d"].map((uuid) => ({
  uuid,
  role: "user",
  kind: "prompt",
  text: `text ${uuid}`,
  exactTokens: null,
  timestamp: null,
}));
const record = (over: Partial<SummaryRecord> = {}): SummaryRecord => ({
  summary: "s",
  provider: "extractive",
  model: null,
  createdAt: "2026-11-22T00:00:00.000Z",
  algorithm: EXTRACTIVE_ALGORITHM,
  sourceChars: 6,
  ...over,
});

describe("messagesToSummarize", () => {
  const sidecar: Sidecar = {
    version: 1,
    sessionId: "s",
    entries: {
      a: record(),
      b: record({ sourceChars: 99 }),
      c: record({ provider: "claude-cli", model: "haiku", algorithm: "llm-batch-1" }),
    },
  };

  it("summarises what is missing or changed, and reuses the rest", () => {
    expect(messagesToSummarize(messages, sidecar, { fromIndex: null, provider: "extractive" })).toEqual([1, 3]);
    expect(messagesToSummarize(messages, null, { fromIndex: null, provider: "extractive" })).toEqual([0, 1, 2, 3]);
  });

  it("regenerates everything from --from on", () => {
    expect(messagesToSummarize(messages, sidecar, { fromIndex: 0, provider: "extractive" })).toEqual([0, 1, 2, 3]);
  });

  it("an LLM provider upgrades extractive summaries but keeps LLM ones; an older extractive algorithm is redone", () => {
    expect(messagesToSummarize(messages, sidecar, { fromIndex: null, provider: "claude-cli" })).toEqual([0, 1, 3]);
    const old: Sidecar = { ...sidecar, entries: { a: record({ algorithm: "extractive-0" }) } };
    expect(messagesToSummarize(messages.slice(0, 1), old, { fromIndex: null, provider: "extractive" })).toEqual([0]);
  });
});
