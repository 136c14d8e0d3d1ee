import { describe, expect, it } from "vitest";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import type { SummaryRequest } from "./extractive.ts";
import { buildPromptBatches, parseClaudeCliOutput, parseMessagesResponse, parseSummariesReply } from "./llm-prompt.ts";
import type { SummaryMessage } from "./messages.ts";

const message = (uuid: string, role: "user" | "assistant", text: string): SummaryMessage => ({
  uuid,
  role,
  kind: role === "user" ? "prompt" : "reply",
  text,
  exactTokens: null,
  timestamp: null,
});

describe("buildPromptBatches", () => {
  it("puts each message in the prompt with the context around it, and batches at most 20", () => {
    const before = message("a0", "assistant", "Shall I use SQLite?");
    const requests: SummaryRequest[] = Array.from({ length: 25 }, (_, i) => ({
      message: message(`u${i}`, "user", `message number ${i}`),
      before,
      after: null,
    }));
    const batches = buildPromptBatches(requests);
    expect(batches.map((batch) => batch.ids.length)).toEqual([20, 5]);
    const first = batches[0];
    expect(first?.prompt).toContain(
      '<before role="assistant">Shall I use SQLite?</before>\n<message id="m1" role="user" kind="prompt">\nmessage number 0\n</message>',
    );
    expect(first?.prompt).toContain('{"summaries": {"<id>": "<summary>"');
    expect(first?.estimatedTokens).toBeGreaterThan(first?.maxOutputTokens ?? 0);
  });

  it("splits by size as well, each message cut to 6,000 characters", () => {
    const big = { message: message("big", "assistant", "x".repeat(50_000)), before: null, after: null };
    const batches = buildPromptBatches(Array.from({ length: 7 }, () => big));
    expect(batches.map((batch) => batch.requests.length)).toEqual([5, 2]);
    expect(batches[0]?.prompt.length).toBeLessThan(40_000);
  });
});

describe("parseSummariesReply", () => {
  it("reads the JSON object, also inside a code fence, and ignores ids it was not asked for", () => {
    const text = 'Here you go:\n```json\n{"summaries": {"m1": "Asked for retries.", "m9": "x"}}\n```';
    expect([...parseSummariesReply(text, ["m1", "m2"], "claude-cli")]).toEqual([["m1", "Asked for retries."]]);
  });

  it("anything else is PROVIDER_FAILED naming the provider", () => {
    const error = thrownCtxError(() => parseSummariesReply("I cannot do that.", ["m1"], "anthropic"));
    expect(error.code).toBe("PROVIDER_FAILED");
    expect(error.message).toContain("anthropic");
  });
});

describe("parseClaudeCliOutput", () => {
  const result = {
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: 1200,
    num_turns: 1,
    result: '{"summaries": {}}',
    session_id: "abc",
    total_cost_usd: 0.001,
    usage: { input_tokens: 10, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 5 },
    modelUsage: {},
    permission_denials: [],
  };

  it("reads Claude Code's result message: the text and the usage (all input kinds counted)", () => {
    expect(parseClaudeCliOutput(JSON.stringify(result))).toEqual({
      text: '{"summaries": {}}',
      usage: { inputTokens: 60, outputTokens: 5 },
    });
  });

  it("an error result, a non-result message and non-JSON are PROVIDER_FAILED with a hint", () => {
    const failed = thrownCtxError(() =>
      parseClaudeCliOutput(
        JSON.stringify({ ...result, is_error: true, subtype: "error_during_execution", result: "Not logged in" }),
      ),
    );
    expect(failed.message).toMatch(/error_during_execution.*Not logged in/);
    expect(failed.hint).toContain("claude -p hello");
    expect(thrownCtxError(() => parseClaudeCliOutput('{"type":"system"}')).code).toBe("PROVIDER_FAILED");
    expect(thrownCtxError(() => parseClaudeCliOutput("Invalid API key")).message).toContain("not JSON");
  });
});

describe("parseMessagesResponse", () => {
  it("joins the text blocks and reads the usage", () => {
    const value = {
      id: "msg_1",
      type: "message",
      content: [
        { type: "text", text: '{"summaries":' },
        { type: "text", text: "{}}" },
      ],
      usage: { input_tokens: 100, output_tokens: 20 },
      stop_reason: "end_turn",
    };
    expect(parseMessagesResponse(value)).toEqual({
      text: '{"summaries":{}}',
      usage: { inputTokens: 100, outputTokens: 20 },
    });
    expect(thrownCtxError(() => parseMessagesResponse({ error: {} })).code).toBe("PROVIDER_FAILED");
  });
});
