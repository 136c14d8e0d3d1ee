import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXTURE } from "../../../tests/helpers/claude-projects.ts";
import { parseTranscriptLine } from "../transcript/entries.ts";
import { collectMessages, neighboursOf, type SummaryMessage, slashCommandOf } from "./messages.ts";

const base = { sessionId: "s1", cwd: "/repo", isSidechain: false, timestamp: "2026-11-22T10:00:00.000Z" };
const user = (uuid: string, content: unknown, extra: object = {}) =>
  JSON.stringify({ ...base, type: "user", uuid, message: { role: "user", content }, ...extra });
const assistant = (uuid: string, id: string, content: unknown[], output: number, extra: object = {}) =>
  JSON.stringify({
    ...base,
    type: "assistant",
    uuid,
    message: {
      id,
      model: "claude-opus-4-6",
      role: "assistant",
      content,
      usage: { input_tokens: 5, cache_read_input_tokens: 1000, output_tokens: output },
    },
    ...extra,
  });
const collect = (lines: string[]) => collectMessages(lines.map(parseTranscriptLine));

describe("collectMessages", () => {
  it("joins an assistant message's lines (one per content block) under its first uuid, with its final output tokens", () => {
    const { messages, contextTokens } = collect([
      user("u1", "Fix the retry bug in src/retry.ts"),
      assistant("a1", "msg_1", [{ type: "thinking", thinking: "hmm" }], 9),
      assistant("a2", "msg_1", [{ type: "text", text: "I'll read the file first." }], 40),
      assistant(
        "a3",
        "msg_1",
        [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/repo/src/retry.ts" } }],
        120,
      ),
      user("r1", [{ type: "tool_result", tool_use_id: "t1", content: "export const retries = 3;" }]),
    ]);
    expect(messages.map((m) => [m.uuid, m.kind])).toEqual([
      ["u1", "prompt"],
      ["a1", "reply"],
      ["r1", "tool-result"],
    ]);
    expect(messages[1]?.text).toBe("I'll read the file first.\nRead(/repo/src/retry.ts)");
    expect(messages[1]?.exactTokens).toBe(120);
    expect(contextTokens).toBe(1005);
  });

  it("drops an output count that cannot be final (streamed lines of old versions) and keeps the estimate", () => {
    const long = "A long reply. ".repeat(100);
    const { messages } = collect([assistant("a1", "msg_1", [{ type: "text", text: long }], 1)]);
    expect(messages[0]?.exactTokens).toBeNull();
  });

  it("leaves out sidechains, meta entries and harness notices, keeps slash commands and the compact summary", () => {
    const { messages } = collect([
      user(
        "u0",
        "<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app</command-args>",
      ),
      user("m1", "Skill body text", { isMeta: true }),
      user("n1", "<local-command-stdout>Set model</local-command-stdout>"),
      user("side", "subagent prompt", { isSidechain: true }),
      user("c1", "This session is being continued from a previous conversation.", { isCompactSummary: true }),
    ]);
    expect(messages.map((m) => [m.uuid, m.kind, m.text.slice(0, 31)])).toEqual([
      ["u0", "prompt", "/orchestrator create TODO app"],
      ["c1", "compact-summary", "This session is being continued"],
    ]);
  });

  it("reads every real fixture without losing its prompts", () => {
    const lines = readFileSync(FIXTURE.subagent, "utf8").split("\n").filter(Boolean);
    const { messages } = collectMessages(lines.map(parseTranscriptLine));
    expect(messages.filter((m) => m.kind === "prompt").map((m) => m.text)).toContain("create the beads");
    expect(new Set(messages.map((m) => m.uuid)).size).toBe(messages.length);
  });
});

describe("slashCommandOf", () => {
  it("reads the command and its arguments, or null for other harness text", () => {
    expect(slashCommandOf("<command-name>/init</command-name>")).toBe("/init");
    expect(slashCommandOf("<local-command-stdout>x</local-command-stdout>")).toBeNull();
  });
});

describe("neighboursOf", () => {
  const m = (uuid: string, role: "user" | "assistant", kind: SummaryMessage["kind"]): SummaryMessage => ({
    uuid,
    role,
    kind,
    text: uuid,
    exactTokens: null,
    timestamp: null,
  });
  const messages = [
    m("p1", "user", "prompt"),
    m("a1", "assistant", "reply"),
    m("r1", "user", "tool-result"),
    m("a2", "assistant", "reply"),
    m("p2", "user", "prompt"),
    m("a3", "assistant", "reply"),
  ];

  it("gives a user message the assistant messages around it", () => {
    expect(neighboursOf(messages, 4)).toMatchObject({ before: { uuid: "a2" }, after: { uuid: "a3" } });
    expect(neighboursOf(messages, 2)).toMatchObject({ before: { uuid: "a1" }, after: { uuid: "a2" } });
  });

  it("gives a reply the person's prompts around it (not tool results)", () => {
    expect(neighboursOf(messages, 3)).toMatchObject({ before: { uuid: "p1" }, after: { uuid: "p2" } });
    expect(neighboursOf(messages, 5)).toMatchObject({ before: { uuid: "p2" }, after: null });
  });
});
