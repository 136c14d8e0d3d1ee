// Cutting what extraction cannot read (extract-bounds.ts): extraction gives exactly the same state from the cut
// entries as from the whole ones, on every real transcript fixture and on long synthetic tool traffic; and what is
// read whole (prompts, replies, compact summaries) is never cut.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  assistantText,
  assistantToolUse,
  compactSummary,
  toolResult,
  userPrompt,
} from "../../../tests/helpers/transcript-lines.ts";
import { type ParsedLine, parseTranscriptLine, type UserEntry } from "../transcript/entries.ts";
import { extractContextState } from "./extract.ts";
import { boundForExtraction, capStrings, TOOL_FIELD_CHARS, TOOL_OUTPUT_CHARS } from "./extract-bounds.ts";

const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures");
const options = {
  sessionId: "s",
  projectRoot: "/repo",
  transcriptPath: "/t.jsonl",
  now: new Date("2026-11-24T00:00:00Z"),
};

function fixtureFiles(): string[] {
  return readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => join(FIXTURES, name));
}

const parse = (text: string): ParsedLine[] =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(parseTranscriptLine);

describe("boundForExtraction", () => {
  it.each(fixtureFiles())("extraction is unchanged on %s", (file) => {
    const lines = parse(readFileSync(file, "utf8"));
    expect(extractContextState(lines.map(boundForExtraction), options)).toEqual(extractContextState(lines, options));
  });

  it("extraction is unchanged with tool outputs, inputs and plans far past the cut", () => {
    const ctx = { sessionId: "s", cwd: "/repo" };
    const long = (seed: string) => Array.from({ length: 6_000 }, (_, i) => `${seed} line ${i}.`).join(" ");
    const text = [
      userPrompt(ctx, `Please look at the logs. ${long("prompt")}`),
      assistantToolUse(ctx, "t1", "Bash", { command: "cat big.log", description: long("desc") }),
      toolResult(ctx, "t1", long("output")),
      assistantToolUse(ctx, "t2", "Write", { file_path: "/repo/src/a.ts", content: long("content") }),
      toolResult(ctx, "t2", "File created successfully at: /repo/src/a.ts"),
      assistantToolUse(ctx, "t3", "ExitPlanMode", { plan: `# Plan\n${long("plan step")}` }),
      toolResult(ctx, "t3", "User has approved your plan."),
      assistantToolUse(ctx, "t4", "Bash", { command: "false" }),
      toolResult(ctx, "t4", `Error: ${long("failure")}`, true),
      assistantText(ctx, "a1", `We decided to keep the parser. ${long("reply")}`),
      compactSummary(ctx, `Summary. ${long("summary")}`),
    ].join("\n");
    const lines = parse(text);
    const bounded = lines.map(boundForExtraction);
    expect(JSON.stringify(bounded).length).toBeLessThan(JSON.stringify(lines).length - 300_000);
    expect(extractContextState(bounded, options)).toEqual(extractContextState(lines, options));
  });

  it("extraction is unchanged when a tool output or input opens with a long run of whitespace", () => {
    const ctx = { sessionId: "s", cwd: "/repo" };
    const blank = `${" ".repeat(TOOL_FIELD_CHARS * 2)}\n\t`;
    const lines = parse(
      [
        assistantToolUse(ctx, "t1", "Bash", { command: `${blank}make test`, description: `${blank}run the tests` }),
        toolResult(ctx, "t1", `${blank}FAIL src/a.test.ts: expected 2 got 3`, true),
        assistantToolUse(ctx, "t2", "TodoWrite", {
          todos: [{ content: `${blank}Fix the failing test`, status: "in_progress", activeForm: `${blank}Fixing` }],
        }),
        toolResult(ctx, "t2", "Todos have been modified successfully."),
      ].join("\n"),
    );
    expect(extractContextState(lines.map(boundForExtraction), options)).toEqual(extractContextState(lines, options));
  });

  it("never cuts what extraction reads past its start: a failure's output, AskUserQuestion's answers in text", () => {
    const ctx = { sessionId: "s", cwd: "/repo" };
    const escapes = "\\n".repeat(TOOL_FIELD_CHARS);
    const pairs = Array.from({ length: 400 }, (_, i) => `"Question ${i} about the layout?"="Answer ${i}"`).join(", ");
    const lines = parse(
      [
        assistantToolUse(ctx, "t1", "Bash", { command: "make" }),
        toolResult(ctx, "t1", `<tool_use_error>${escapes}make: *** [all] Error 2</tool_use_error>`, true),
        assistantToolUse(ctx, "t2", "AskUserQuestion", { questions: [] }),
        toolResult(ctx, "t2", `User has answered your questions: ${pairs}. You can now continue.`),
      ].join("\n"),
    );
    const bounded = lines.map(boundForExtraction);
    const contentOf = (line: ParsedLine | undefined) => (line as UserEntry).message.content;
    expect(contentOf(bounded[1])).toEqual(contentOf(lines[1]));
    expect(contentOf(bounded[3])).toEqual(contentOf(lines[3]));
    expect(extractContextState(bounded, options)).toEqual(extractContextState(lines, options));
  });

  it("cuts only tool outputs, tool inputs and structured results, never prompts, replies or compact summaries", () => {
    const ctx = { sessionId: "s", cwd: "/repo" };
    const huge = "x".repeat(TOOL_FIELD_CHARS * 2);
    const [prompt, reply, summary, output, input] = parse(
      [
        userPrompt(ctx, huge),
        assistantText(ctx, "a1", huge),
        compactSummary(ctx, huge),
        toolResult(ctx, "t1", huge),
        assistantToolUse(ctx, "t1", "Bash", { command: huge }),
      ].join("\n"),
    );
    for (const whole of [prompt, reply, summary]) {
      const content = (whole as UserEntry).message.content;
      expect((boundForExtraction(whole as ParsedLine) as UserEntry).message.content).toBe(content);
    }
    expect(JSON.stringify(boundForExtraction(output as ParsedLine))).toContain(`"${"x".repeat(TOOL_OUTPUT_CHARS)}"`);
    expect(JSON.stringify(boundForExtraction(output as ParsedLine)).length).toBeLessThan(TOOL_OUTPUT_CHARS + 1_000);
    expect(JSON.stringify(boundForExtraction(input as ParsedLine))).toContain(`"${"x".repeat(TOOL_FIELD_CHARS)}"`);
    expect(JSON.stringify(boundForExtraction(input as ParsedLine)).length).toBeLessThan(TOOL_FIELD_CHARS + 1_000);
  });

  it("drops what extraction never reads: unread result and input fields, thinking, images", () => {
    const ctx = { sessionId: "s", cwd: "/repo" };
    const big = "y".repeat(50_000);
    const envelope = { sessionId: "s", cwd: "/repo", timestamp: "2026-11-22T10:00:00.000Z", isSidechain: false };
    const lines = parse(
      [
        JSON.stringify({
          ...envelope,
          type: "assistant",
          uuid: "a1",
          message: {
            id: "m1",
            model: "claude-opus-4-6",
            role: "assistant",
            content: [
              { type: "thinking", thinking: big, signature: big },
              { type: "text", text: "Editing the parser now." },
              {
                type: "tool_use",
                id: "e1",
                name: "Edit",
                input: { file_path: "/repo/src/parse.ts", old_string: big, new_string: big, replace_all: false },
              },
            ],
          },
        }),
        JSON.stringify({
          ...envelope,
          type: "user",
          uuid: "u1",
          message: {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "e1", content: "The file has been updated." },
              { type: "image", source: { type: "base64", media_type: "image/png", data: big } },
            ],
          },
          toolUseResult: { filePath: "/repo/src/parse.ts", originalFile: big, structuredPatch: [{ lines: [big] }] },
        }),
        assistantToolUse(ctx, "t1", "TaskCreate", { subject: "Fix the parser", description: big }),
        JSON.stringify({
          ...envelope,
          type: "user",
          uuid: "u2",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "Task #7 created" }] },
          toolUseResult: { task: { id: "7", subject: big, output: big } },
        }),
        JSON.stringify({
          ...envelope,
          type: "user",
          uuid: "u3",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
          toolUseResult: `Error: ${big}`,
        }),
      ].join("\n"),
    );
    const bounded = lines.map(boundForExtraction);
    expect(JSON.stringify(bounded)).not.toContain("y".repeat(TOOL_FIELD_CHARS + 1));
    expect(JSON.stringify(bounded[0])).toContain('{"type":"thinking"}');
    expect(JSON.stringify(bounded[1])).toContain('{"type":"image"}');
    expect((bounded[1] as { toolUseResult?: unknown }).toolUseResult).toEqual({ filePath: "/repo/src/parse.ts" });
    expect((bounded[3] as { toolUseResult?: unknown }).toolUseResult).toEqual({ task: { id: "7" } });
    expect(bounded[4]).not.toHaveProperty("toolUseResult");
    const state = extractContextState(bounded, options);
    expect(state).toEqual(extractContextState(lines, options));
    expect(state.todos?.items.map((item) => item.id)).toEqual(["7"]);
    expect(state.files.map((file) => file.path)).toEqual(["/repo/src/parse.ts"]);
  });

  it("keeps only the envelope and message fields extraction reads", () => {
    const [reply, boundary] = parse(
      [
        JSON.stringify({
          parentUuid: "p1",
          isSidechain: false,
          userType: "external",
          cwd: "/repo",
          sessionId: "s",
          version: "2.1.39",
          gitBranch: "main",
          slug: "radiant-floating-cat",
          type: "assistant",
          uuid: "a1",
          timestamp: "2026-11-22T10:00:00.000Z",
          requestId: "req_1",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude-opus-4-6",
            content: [{ type: "text", text: "Done." }],
            stop_reason: "end_turn",
            usage: { input_tokens: 3, cache_read_input_tokens: 10, output_tokens: 5, service_tier: "standard" },
          },
        }),
        JSON.stringify({
          type: "system",
          subtype: "compact_boundary",
          uuid: "b1",
          logicalParentUuid: "a1",
          timestamp: "2026-11-22T10:01:00.000Z",
          compactMetadata: { trigger: "auto", preTokens: 150000 },
          content: "Conversation compacted",
        }),
      ].join("\n"),
    );
    expect(boundForExtraction(reply as ParsedLine)).toEqual({
      isSidechain: false,
      cwd: "/repo",
      version: "2.1.39",
      gitBranch: "main",
      type: "assistant",
      uuid: "a1",
      timestamp: "2026-11-22T10:00:00.000Z",
      message: {
        id: "msg_1",
        model: "claude-opus-4-6",
        content: [{ type: "text", text: "Done." }],
        usage: { input_tokens: 3, cache_read_input_tokens: 10, output_tokens: 5 },
      },
    });
    expect(boundForExtraction(boundary as ParsedLine)).toEqual({
      type: "system",
      subtype: "compact_boundary",
      uuid: "b1",
      timestamp: "2026-11-22T10:01:00.000Z",
      compactMetadata: { trigger: "auto", preTokens: 150000 },
    });
    const lines = [reply, boundary] as ParsedLine[];
    expect(extractContextState(lines.map(boundForExtraction), options)).toEqual(extractContextState(lines, options));
  });

  it("keeps what extraction reads of a structured result: a plan, its file, the answers", () => {
    const plan = { plan: "# Plan", filePath: "/home/u/.claude/plans/p.md", isAgent: false };
    const answers = { questions: [{ question: "Which?" }], answers: { "Which?": "The first" } };
    for (const toolUseResult of [plan, answers]) {
      const [line] = parse(
        JSON.stringify({
          uuid: "u1",
          type: "user",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] },
          toolUseResult,
        }),
      );
      const { questions: _q, isAgent: _a, ...read } = toolUseResult as Record<string, unknown>;
      expect((boundForExtraction(line as ParsedLine) as { toolUseResult?: unknown }).toolUseResult).toEqual(read);
    }
  });

  it("capStrings returns the very same object when nothing is longer than the cap", () => {
    const value = { a: ["short", { b: "also short" }], c: 3 };
    expect(capStrings(value, 100)).toBe(value);
    // Whitespace is not counted: "also short" holds 5 others by "also s".
    expect(capStrings(value, 5)).toEqual({ a: ["short", { b: "also s" }], c: 3 });
    // Whitespace beyond ASCII (no-break, ideographic, line separator) is not counted either; other letters are.
    expect(capStrings("a\u00a0b\u3000\u2028c d", 3)).toBe("a\u00a0b\u3000\u2028c");
    expect(capStrings("éa\u00a0ü😀x", 4)).toBe("éa\u00a0ü\ud83d");
  });
});
