import { describe, expect, it } from "vitest";
import { claudeTurnArgs, parseClaudeTurnOutput } from "./claude-runner.ts";

describe("claudeTurnArgs", () => {
  it("resumes the session and appends the summary before the configured arguments", () => {
    expect(claudeTurnArgs({ prompt: "p", resume: null, appendSystemPrompt: null }, ["--model", "sonnet"])).toEqual([
      "-p",
      "--output-format",
      "json",
      "--model",
      "sonnet",
    ]);
    expect(claudeTurnArgs({ prompt: "p", resume: "abc", appendSystemPrompt: "summary" }, [])).toEqual([
      "-p",
      "--output-format",
      "json",
      "--resume",
      "abc",
      "--append-system-prompt",
      "summary",
    ]);
  });
});

describe("parseClaudeTurnOutput", () => {
  const result = {
    type: "result",
    subtype: "success",
    is_error: false,
    result: "hello",
    session_id: "s1",
    usage: { input_tokens: 3, cache_read_input_tokens: 1_000, output_tokens: 5 },
  };

  it("reads result, session id and usage from the last JSON line", () => {
    expect(parseClaudeTurnOutput(`warming up\n${JSON.stringify(result)}\n`)).toEqual({
      text: "hello",
      sessionId: "s1",
      usage: { input_tokens: 3, cache_read_input_tokens: 1_000, output_tokens: 5 },
      calls: 1,
    });
  });

  it("turns Claude Code's own error result into an error naming it", () => {
    expect(() =>
      parseClaudeTurnOutput(JSON.stringify({ ...result, is_error: true, result: "Credit balance is too low" })),
    ).toThrow("Claude Code reported an error: Credit balance is too low");
  });

  it("says what stdout held when there is no JSON result", () => {
    expect(() => parseClaudeTurnOutput("")).toThrow("Claude Code printed no JSON result (nothing on stdout)");
    expect(() => parseClaudeTurnOutput('{"type":"result"}')).toThrow('stdout began: "{\\"type\\":\\"result\\"}"');
  });
});
