import { describe, expect, it } from "vitest";
import { type AssistantEntry, isSkipped, parseTranscriptLine, type UserEntry } from "./entries.ts";
import { entryText, toolResultsOf, toolUseGist, toolUsesOf, truncateText } from "./text.ts";

function parse<T>(value: object): T {
  const parsed = parseTranscriptLine(JSON.stringify(value));
  if (isSkipped(parsed)) throw new Error(parsed.skipped);
  return parsed as T;
}

const assistant = (content: unknown[]) =>
  parse<AssistantEntry>({ type: "assistant", uuid: "a", message: { id: "m", content } });
const user = (content: unknown, extra: object = {}) =>
  parse<UserEntry>({ type: "user", uuid: "u", message: { role: "user", content }, ...extra });

describe("toolUseGist", () => {
  it("names the tool and what it was about", () => {
    expect(toolUseGist("Read", { file_path: "/p/src/app.ts", limit: 10 })).toBe("Read(/p/src/app.ts)");
    expect(toolUseGist("Bash", { command: "mix test 2>&1\n| tail -5", description: "Run" })).toBe(
      "Bash(mix test 2>&1 | tail -5)",
    );
    expect(toolUseGist("Grep", { pattern: "TODO", path: "/p" })).toBe("Grep(TODO)");
    expect(toolUseGist("TaskUpdate", { taskId: 3, status: "completed" })).toBe("TaskUpdate(3)");
    expect(toolUseGist("ExitPlanMode", {})).toBe("ExitPlanMode");
    expect(toolUseGist("Weird", "not an object")).toBe("Weird");
    expect(toolUseGist("Bash", { command: "x".repeat(500) })).toHaveLength("Bash()".length + 120);
  });
});

describe("entryText", () => {
  it("joins text blocks and gists, leaving thinking out", () => {
    const entry = assistant([
      { type: "thinking", thinking: "secret plan", signature: "s" },
      { type: "text", text: "  Let me look.  " },
      { type: "tool_use", id: "t", name: "Read", input: { file_path: "/a.ts" } },
    ]);
    expect(entryText(entry)).toBe("Let me look.\nRead(/a.ts)");
  });

  it("trims tool results and marks errors", () => {
    const entry = user([
      { type: "tool_result", tool_use_id: "t1", content: "x".repeat(1000) },
      { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "denied" }], is_error: true },
      { type: "image", source: {} },
    ]);
    const text = entryText(entry, 20);
    expect(text).toBe(`${"x".repeat(19)}…\n[error] denied\n[image]`);
  });

  it("takes string content as it is", () => {
    expect(entryText(user("plain words"))).toBe("plain words");
  });
});

describe("tool calls and results", () => {
  it("lists calls with their ids and results with their error flag", () => {
    expect(toolUsesOf(assistant([{ type: "tool_use", id: "t1", name: "Edit", input: { file_path: "/a" } }]))).toEqual([
      { id: "t1", name: "Edit", input: { file_path: "/a" } },
    ]);
    const results = toolResultsOf(
      user([{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "a" }, { type: "image" }] }]),
    );
    expect(results).toEqual([{ toolUseId: "t1", isError: false, text: "a\n[image]" }]);
    expect(toolResultsOf(user("no blocks"))).toEqual([]);
  });
});

describe("truncateText", () => {
  it("never splits a surrogate pair", () => {
    const text = `ab${"😀".repeat(5)}`;
    const cut = truncateText(text, 4);
    expect(cut).toBe("ab…");
    expect(truncateText("short", 10)).toBe("short");
  });
});
