// The message builder on hand-made entries: the rules the fixtures do not all show.
import { describe, expect, it } from "vitest";
import { isSkipped, parseTranscriptLine, type TranscriptEntry } from "../transcript/entries.ts";
import { createIndexMessageBuilder, MAX_MESSAGE_CHARS } from "./messages.ts";
import { commandOutputGist, toolCallGist, toolErrorGist } from "./tool-gist.ts";

// A fake secret assembled from parts, as src/core/redact/redact.test.ts does.
const GITHUB = ["gh", "p_", "Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A"].join("");

let clock = 0;
function entry(value: Record<string, unknown>): TranscriptEntry {
  clock += 1;
  const parsed = parseTranscriptLine(
    JSON.stringify({
      uuid: `e${clock}`,
      sessionId: "s1",
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(),
      ...value,
    }),
  );
  if (isSkipped(parsed)) throw new Error(`not an entry: ${parsed.skipped}`);
  return parsed;
}
const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  entry({ type: "user", message: { role: "user", content }, ...extra });
const assistant = (id: string, content: unknown[], extra: Record<string, unknown> = {}) =>
  entry({ type: "assistant", message: { id, role: "assistant", model: "claude-opus-4-6", content }, ...extra });

function build(entries: TranscriptEntry[]) {
  const builder = createIndexMessageBuilder();
  for (const [index, item] of entries.entries()) builder.add(item, index * 100);
  return builder.finish();
}

describe("createIndexMessageBuilder", () => {
  it("joins the lines of one reply (same message.id) across its tool results; a new id is a new message", () => {
    const { messages } = build([
      user("fix the parser"),
      assistant("m1", [{ type: "thinking", thinking: "hmm" }]),
      assistant("m1", [{ type: "text", text: "Looking." }]),
      assistant("m1", [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "src/p.ts" } }]),
      user([
        {
          type: "tool_result",
          tool_use_id: "t1",
          content: "<tool_use_error>File does not exist.</tool_use_error>",
          is_error: true,
        },
      ]),
      assistant("m1", [{ type: "text", text: "It is missing." }]),
      assistant("m2", [{ type: "text", text: "Next step." }]),
    ]);
    expect(messages.map((message) => [message.role, message.text, message.tools, message.offset])).toEqual([
      ["user", "fix the parser", [], 0],
      ["assistant", "Looking.\n\nIt is missing.", ["Read src/p.ts", "Error: File does not exist."], 100],
      ["assistant", "Next step.", [], 600],
    ]);
  });

  it("drops meta, noise, interruptions, API errors and synthetic replies; keeps commands as /name args", () => {
    const { messages, meta } = build([
      user("<local-command-caveat>Caveat: …</local-command-caveat>", { isMeta: true }),
      user("<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>"),
      user("<local-command-stdout>Reconnected.</local-command-stdout>"),
      user(
        "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>PR 12</command-args>",
      ),
      user("Skill body text", { isMeta: true }),
      user([{ type: "text", text: "[Request interrupted by user]" }]),
      assistant("m9", [{ type: "text", text: "API Error: overloaded" }], { isApiErrorMessage: true }),
      entry({
        type: "assistant",
        message: { id: "m8", model: "<synthetic>", content: [{ type: "text", text: "No response" }] },
      }),
      user("<task-notification>\n<task-id>b1</task-id>\n</task-notification>"),
    ]);
    expect(messages.map((message) => message.text)).toEqual(["/mcp", "/review PR 12"]);
    expect(messages[0]?.tools).toEqual(["Output: Reconnected."]);
    expect(meta.firstPrompt).toBe("/mcp");
  });

  it("keeps what a command the person ran printed on its line: a slash command's output, a ! command's", () => {
    const stdout = [
      "\u001b[38;2;44;122;57mConfigured Terminal.app settings:\u001b[39m",
      '\u001b[38;2;44;122;57m- Enabled "Use Option as Meta key"\u001b[39m',
      "\u001b[2mOption+Enter will now enter a newline.\u001b[22m",
    ].join("\n");
    const { messages } = build([
      user("<command-name>/terminal-setup</command-name>\n<command-message>terminal-setup</command-message>"),
      user(`<local-command-stdout>${stdout}</local-command-stdout>`),
      user("<bash-input>pnpm test</bash-input>"),
      user("<bash-stdout></bash-stdout><bash-stderr>Error: Cannot find module 'vitest'\n</bash-stderr>"),
      user("<command-name>/clear</command-name>"),
      user("<local-command-stdout></local-command-stdout>"),
      assistant("m1", [{ type: "text", text: "Done." }]),
      user("<local-command-stdout>Printed after a reply: no command to join.</local-command-stdout>"),
      user("subagent task", { isSidechain: true }),
      user("<local-command-stdout>Not the main chain's command.</local-command-stdout>"),
      user("<bash-input>env</bash-input>"),
      user(`<bash-stdout>GH_TOKEN=${GITHUB}\nHOME=/home/me</bash-stdout>`),
    ]);
    expect(messages.map((message) => [message.text, message.tools])).toEqual([
      [
        "/terminal-setup",
        [
          'Output: Configured Terminal.app settings: - Enabled "Use Option as Meta key" Option+Enter will now enter a newline.',
        ],
      ],
      ["<bash-input>pnpm test</bash-input>", ["Output: Error: Cannot find module 'vitest'"]],
      ["/clear", []],
      ["Done.", []],
      ["subagent task", []],
      // Redacted as every indexed line is.
      ["<bash-input>env</bash-input>", ["Output: GH_TOKEN=[REDACTED:github-token] HOME=/home/me"]],
    ]);
  });

  it("keeps sidechain replies apart from the main chain and marks them", () => {
    const { messages, meta } = build([
      user("main prompt"),
      assistant("m1", [{ type: "text", text: "Delegating." }]),
      user("subagent task", { isSidechain: true }),
      assistant("s1", [{ type: "text", text: "Sub work." }], { isSidechain: true }),
      assistant("m1", [{ type: "tool_use", id: "t", name: "Task", input: { description: "Explore code" } }]),
    ]);
    expect(messages.map((message) => [message.text, message.sidechain, message.tools])).toEqual([
      ["main prompt", false, []],
      ["Delegating.", false, ["Task Explore code"]],
      ["subagent task", true, []],
      ["Sub work.", true, []],
    ]);
    expect(meta.firstPrompt).toBe("main prompt");
  });

  it("takes the newest custom title over an ai title over a summary record; summaries become messages", () => {
    const titles = build([
      entry({ type: "summary", summary: "Old summary", leafUuid: "leaf" }),
      user("the leaf the summary names", { uuid: "leaf" }),
      entry({ type: "ai-title", aiTitle: "Generated" }),
      entry({ type: "custom-title", customTitle: "Mine" }),
      entry({ type: "ai-title", aiTitle: "Generated later" }),
    ]);
    expect(titles.meta.title).toBe("Mine");
    expect(titles.messages).toMatchObject([{ role: "summary", text: "Old summary", uuid: null }, { role: "user" }]);
    expect(build([entry({ type: "ai-title", aiTitle: "Generated" })]).meta.title).toBe("Generated");
    const compact = build([
      user("This session is being continued…", { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
    ]);
    expect(compact.messages).toMatchObject([{ role: "summary", text: "This session is being continued…" }]);
    expect(compact.meta.firstPrompt).toBeNull();
  });

  it("keeps a summary record only when its leaf is a line of this transcript: the others title other sessions", () => {
    // As Claude Code writes them: titles of earlier sessions at the top of a new one's file, and after a line of its
    // own, that session's title.
    const { messages, meta } = build([
      entry({ type: "summary", summary: "Gmail subscription manager CLI tool", leafUuid: "elsewhere-1" }),
      entry({ type: "summary", summary: "Mac security audit", leafUuid: "elsewhere-2" }),
      user("reset window tiles with aerospace", { uuid: "u1" }),
      assistant("m1", [{ type: "text", text: "Tiles reset." }], { uuid: "a1" }),
      entry({ type: "summary", summary: "Aerospace window tiles reset", leafUuid: "a1" }),
      entry({ type: "summary", summary: "Git history scrubbed", leafUuid: "elsewhere-3" }),
    ]);
    expect(messages.map((message) => [message.role, message.text])).toEqual([
      ["user", "reset window tiles with aerospace"],
      ["assistant", "Tiles reset."],
      ["summary", "Aerospace window tiles reset"],
    ]);
    expect(meta.title).toBe("Aerospace window tiles reset");
    const foreignOnly = build([
      entry({ type: "summary", summary: "Another session", leafUuid: "elsewhere" }),
      user("install Xcode"),
    ]);
    expect(foreignOnly.messages.map((message) => message.role)).toEqual(["user"]);
    expect(foreignOnly.meta.title).toBeNull();
    // A record naming no leaf is this file's, as before.
    const leafless = build([entry({ type: "summary", summary: "Untied title" }), user("hello")]);
    expect(leafless.meta.title).toBe("Untied title");
    expect(leafless.messages[0]).toMatchObject({ role: "summary", text: "Untied title" });
  });

  it("records meta: first cwd, last branch, time range; cuts huge texts and one-lines the first prompt", () => {
    const { messages, meta } = build([
      user(`first\n\n  prompt ${"y".repeat(400)}`, { cwd: "/a", gitBranch: "main" }),
      user("z".repeat(MAX_MESSAGE_CHARS + 10), { cwd: "/b", gitBranch: "feature" }),
    ]);
    expect(meta).toMatchObject({ sessionId: "s1", cwd: "/a", gitBranch: "feature" });
    expect(meta.firstPrompt?.startsWith("first prompt yyy")).toBe(true);
    expect(meta.firstPrompt).toHaveLength(300);
    expect(meta.lastTimestamp).toBeGreaterThan(meta.firstTimestamp ?? Number.POSITIVE_INFINITY);
    expect(messages[1]?.text).toHaveLength(MAX_MESSAGE_CHARS);
    expect(messages[1]?.text.endsWith("…")).toBe(true);
  });
});

describe("tool gists", () => {
  it.each([
    ["Edit", { file_path: "src/a.ts", old_string: "x" }, "Edit src/a.ts"],
    ["Bash", { command: "pnpm   test\n--run", description: "Run tests" }, "Bash: pnpm test --run"],
    ["Grep", { pattern: "parseTranscriptLine", path: "src" }, "Grep parseTranscriptLine"],
    ["WebFetch", { url: "https://example.com/x", prompt: "read" }, "WebFetch https://example.com/x"],
    ["Task", { description: "Explore code", prompt: "long" }, "Task Explore code"],
    ["TodoWrite", { todos: [] }, "TodoWrite"],
    ["mcp__ctx__ctx_status", null, "mcp__ctx__ctx_status"],
  ])("%s %j → %s", (name, input, gist) => {
    expect(toolCallGist(name, input)).toBe(gist);
  });

  it("cuts long arguments and keeps what a failure says, past a shell's exit status", () => {
    expect(toolCallGist("Bash", { command: "x".repeat(500) })).toHaveLength("Bash: ".length + 120);
    expect(toolErrorGist("Exit code 1\nstack trace\nmore")).toBe("Error: stack trace more");
    expect(toolErrorGist("Exit code 128")).toBe("Error: Exit code 128");
    const push = [
      "Exit code 1",
      "remote: error: GH013: Repository rule violations found for refs/heads/main.        ",
      "remote: ",
      "remote: - GITHUB PUSH PROTECTION        ",
      "remote:   —————————————————————————————————————————        ",
      "remote:     Resolve the following violations before pushing again",
    ].join("\n");
    const gist = toolErrorGist(push) ?? "";
    expect(gist).toMatch(/^Error: remote: error: GH013: Repository rule violations found for refs\/heads\/main\. /);
    expect(gist).toContain("remote: - GITHUB PUSH PROTECTION remote: Resolve the following violations");
    expect(gist).not.toContain("—");
    expect(toolErrorGist(`Exit code 2\n${"npm ERR! missing script ".repeat(40)}`)).toHaveLength("Error: ".length + 160);
    expect(toolErrorGist("The user doesn't want to proceed with this tool use. The tool use was rejected")).toBe(
      "Rejected by user",
    );
    expect(toolErrorGist("  \n ")).toBeNull();
  });

  it("keeps what a command's output says, escapes removed, and nothing for other text or output that says nothing", () => {
    expect(commandOutputGist("<local-command-stdout>\u001b[1mSet model to opus\u001b[22m</local-command-stdout>")).toBe(
      "Output: Set model to opus",
    );
    expect(commandOutputGist(`<bash-stdout>${"line of output ".repeat(40)}</bash-stdout>`)).toHaveLength(
      "Output: ".length + 160,
    );
    expect(commandOutputGist("<local-command-stdout> -- 42 </local-command-stdout>")).toBeNull();
    expect(commandOutputGist("<local-command-caveat>Caveat</local-command-caveat>")).toBeNull();
    expect(commandOutputGist("please run <bash-stdout>x</bash-stdout>")).toBeNull();
  });
});
