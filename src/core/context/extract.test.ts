import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ParsedLine, parseTranscriptLine } from "../transcript/entries.ts";
import {
  type ContextState,
  ContextStateBuilder,
  ContextStateSchema,
  type ExtractOptions,
  extractContextState,
} from "./extract.ts";

const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures");
const LONG =
  "claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl";
const ROOT = "/home/USER/projects/spotter-worktrees/spotter-dov";
/** Line 754 of the long session (index 753) is its compact_boundary. */
const BOUNDARY_INDEX = 753;

function rawLines(name: string): string[] {
  return readFileSync(join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

function options(projectRoot = ROOT): ExtractOptions {
  return { sessionId: "session-1", projectRoot, transcriptPath: "/t.jsonl", now: new Date("2026-11-01T00:00:00Z") };
}

function extract(lines: string[], projectRoot = ROOT): ContextState {
  const state = extractContextState(lines.map(parseTranscriptLine), options(projectRoot));
  // Every state the extraction makes must be one state.ctx can hold.
  expect(ContextStateSchema.safeParse(state).success).toBe(true);
  return state;
}

const fileTable = (state: ContextState) =>
  state.files.map((f) => `${f.path.replace(`${ROOT}/`, "")} r${f.reads} w${f.writes} ${f.lastAction}`);

describe("the long spotter session before its compaction boundary", () => {
  const state = extract(rawLines(LONG).slice(0, BOUNDARY_INDEX));

  it("holds the files the transcript shows read and written, most recent last", () => {
    expect(fileTable(state)).toEqual([
      "lib/spotter_web/live/pane_list_live.ex r1 w0 read",
      "test/spotter_web/live/session_live_test.exs r1 w0 read",
      "deps/ash_computer/lib/ash_computer/live_view.ex r1 w0 read",
      "deps/ash_computer/lib/ash_computer.ex r1 w0 read",
      "lib/spotter_web/live/session_live.ex r2 w11 edit",
      "lib/spotter_web/live/subagent_live.ex r2 w1 write",
      "test/spotter_web/live/subagent_live_test.exs r0 w1 write",
      "lib/spotter/services/transcript_renderer.ex r2 w3 edit",
      "test/spotter/services/transcript_renderer_test.exs r2 w1 edit",
      "assets/js/app.js r2 w0 read",
      "lib/spotter_web/live/transcript_computers.ex r1 w3 write",
      "lib/spotter_web/components/transcript_components.ex r1 w2 write",
    ]);
    expect(state.files.every((f) => f.inProject && f.contentHash === null)).toBe(true);
    expect(state.files.at(-1)?.lastAccess).toBe("2026-02-12T20:29:01.208Z");
  });

  it("has no task list: this project tracks work in beads and forbids TodoWrite", () => {
    expect(state.todos).toBeNull();
    expect(state.plan).toBeNull();
  });

  it("counts tool calls and the context size of the last reply", () => {
    expect(state.tools.calls).toEqual({ Bash: 27, Task: 1, Read: 16, Write: 7, Edit: 15, Grep: 2, TaskOutput: 1 });
    expect(state.tools.total).toBe(69);
    expect(state.tools.failures).toEqual([]);
    expect(state.contextTokens).toBe(164831);
  });

  it("holds the conversation from the first prompt", () => {
    expect(state.conversation[0]).toMatchObject({ role: "user", kind: "prompt" });
    expect(state.conversation[0]?.text).toMatch(/^Work on bead spotter-dov\./);
    expect(state.conversationOmitted).toBe(0);
    expect(state.session).toMatchObject({
      userMessages: 2,
      compactions: 0,
      model: "claude-opus-4-6",
      cwd: ROOT,
      gitBranch: "spotter-dov",
      firstTimestamp: "2026-02-12T16:02:25.284Z",
    });
  });
});

describe("the long spotter session after its compaction boundary", () => {
  const lines = rawLines(LONG);
  const state = extract(lines);
  const uuidsAfterBoundary = new Set(
    lines.slice(BOUNDARY_INDEX).map((line) => (JSON.parse(line) as { uuid?: string }).uuid),
  );

  it("starts the conversation at the compact summary and holds nothing from before", () => {
    expect(state.conversation[0]).toMatchObject({
      kind: "compact-summary",
      uuid: "e95c1e9a-5084-4e69-bf3d-42c8d45f3985",
    });
    expect(state.conversation[0]?.text).toMatch(/^This session is being continued/);
    expect(state.conversation.every((message) => uuidsAfterBoundary.has(message.uuid))).toBe(true);
    expect(state.session.compactions).toBe(1);
    // The two prompts the person typed (line 1502 is a background-task notification).
    expect(state.session.userMessages).toBe(2);
    expect(state.conversation.filter((m) => m.kind === "notice").map((m) => m.text.slice(0, 19))).toEqual([
      "<task-notification>",
    ]);
    expect(state.session.lastCompaction).toEqual({
      trigger: "auto",
      preTokens: 170251,
      postTokens: null,
      timestamp: "2026-02-12T20:30:28.504Z",
    });
  });

  it("merges a reply written over several lines and keeps its final output tokens", () => {
    // Lines 760-763 share one message id; output_tokens grows from 9 to 639 on the last line.
    const reply = state.conversation[1];
    expect(reply).toMatchObject({ role: "assistant", kind: "reply", tokens: 639 });
    expect(reply?.text).toMatch(/^Continuing with spotter-dov\.3\./);
    expect(reply?.text).toMatch(/Edit\(.*transcript_components\.ex\)$/);
  });

  it("takes the context size from the last main-chain reply, and the person's answer as a decision", () => {
    expect(state.contextTokens).toBe(106060);
    expect(state.decisions.map((d) => `${d.by}/${d.source}: ${d.text}`)).toEqual([
      "assistant/reply: So I don't need a manual handler — the framework handles it.",
      "user/answer: Pre-commit hook blocks on pre-existing dialyzer/credo issues in waiting_summary.ex (not our code). How should we proceed? → main was clean; fix the issues",
    ]);
    expect(state.preferences).toEqual([]);
  });

  it("keeps files and tool counts across the boundary and lists the latest failures", () => {
    expect(state.files).toHaveLength(16);
    expect(state.files.at(-1)?.inProject).toBe(false); // the background task's output file in /tmp
    expect(state.tools.total).toBe(150);
    expect(state.tools.failures.map((f) => f.message.slice(0, 40))).toEqual([
      "Exit code 1 The following paths are igno",
      "Pre-commit validation failed: [FORMAT] C",
      "Pre-commit validation failed: [CREDO] Ch",
      "Pre-commit validation failed: [DIALYZER]",
      "Exit code 128 fatal: The current branch ",
    ]);
  });
});

describe("older transcripts (Claude Code 1.0.x)", () => {
  it("keeps inline sidechains out of the conversation and the task list, but counts their file work", () => {
    const name = "claude/projects/-path-to-Demo/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl";
    const lines = rawLines(name);
    const state = extract(lines, "/path/to/Demo");
    const sidechain = new Set(
      lines
        .map((line) => JSON.parse(line) as { uuid?: string; isSidechain?: boolean })
        .filter((e) => e.isSidechain)
        .map((e) => e.uuid),
    );
    expect(state.conversation.length).toBeGreaterThan(0);
    expect(state.conversation.some((message) => sidechain.has(message.uuid))).toBe(false);
    // The file's one summary record titles another session (1af7fc5e: its leafUuid is a line of that transcript).
    expect(state.session.title).toBeNull();
    // The main chain's last TodoWrite (line 431), not a subagent's later list (line 427 is a sidechain's).
    expect(state.todos?.items.map((t) => `${t.status}: ${t.content}`)).toEqual([
      "completed: Set up Next.js project structure and dependencies",
      "completed: Create core TODO data models and types",
      "completed: Build TODO components (TodoItem, TodoList, AddTodo)",
      "completed: Implement state management and CRUD operations",
      "completed: Create main page layout and integrate components",
    ]);
    expect(state.files.find((f) => f.path === "/path/to/Demo/types/todo.ts")).toMatchObject({ reads: 2, writes: 2 });
    expect(state.files.at(-1)).toMatchObject({ path: "/path/to/Demo/CLAUDE.md", lastAction: "write" });
    expect(state.tools.failures).toHaveLength(10);
    expect(state.contextTokens).toBe(21552);
  });

  it("does not count a write the person did not permit, nor an edit that failed", () => {
    const init = extract(
      rawLines("claude/projects/-path-to-Demo/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"),
      "/path/to/Demo",
    );
    expect(init.files).toEqual([]);
    expect(init.tools.failures[0]?.message).toMatch(/^Claude requested permissions to write/);
    expect(init.todos?.items).toEqual([
      {
        id: null,
        content: "Create CLAUDE.md with essential information",
        status: "completed",
        activeForm: "Creating CLAUDE.md with essential information",
      },
    ]);
    expect(init.session.gitBranch).toBeNull();

    const update = extract(
      rawLines("claude/projects/-path-to-Demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"),
      "/path/to/Demo",
    );
    expect(update.files.find((f) => f.path === "/path/to/Demo/CLAUDE.md")).toMatchObject({
      reads: 1,
      writes: 1,
      lastAction: "edit",
      inProject: true,
    });
  });
});

describe("plans, questions and rejected tools (Claude Code 2.1.38)", () => {
  it("records the plan file ExitPlanMode names, approved, and the answers as decisions", () => {
    const state = extract(
      rawLines("claude/projects/-home-marco-projects-spotter/491e126e-1e71-469c-ade2-fcc8af567c74.jsonl"),
      "/home/marco/projects/spotter",
    );
    expect(state.plan).toEqual({
      text: null,
      filePath: "/home/marco/.claude/plans/humble-seeking-umbrella.md",
      proposedAt: "2026-02-10T21:59:19.841Z",
      approved: true,
    });
    expect(state.decisions.map((d) => d.text)).toEqual([
      "Which rig do these beads belong to? (This is a single-app project — should I use 'spotter'?) → No rig",
      "Which tools should we set up? → Credo + Dialyxir + mix_audit",
    ]);
  });

  it("lists tool uses the person rejected as failures", () => {
    const state = extract(
      rawLines("claude/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl"),
      "/home/marco/projects/spotter",
    );
    expect(state.tools.failures.map((f) => f.tool)).toEqual(["Bash", "Glob"]);
    expect(state.tools.failures[0]?.message).toMatch(/^The user doesn't want to proceed/);
    expect(state.contextTokens).toBe(25353);
    // Claude Code's own "[Request interrupted…]" line is a notice, not something the person typed.
    expect(state.conversation.at(-1)).toMatchObject({
      kind: "notice",
      text: "[Request interrupted by user for tool use]",
    });
    expect(state.session.userMessages).toBe(1);
  });
});

describe("synthetic transcripts", () => {
  it("follows the Task* tools, the plan, statements and a compaction with postTokens", () => {
    const state = extract(rawLines("transcripts/synthetic/task-tools.jsonl"), "/work/demo");
    expect(state.todos).toEqual({
      source: "Task",
      updatedAt: "2026-03-01T10:10:12.000Z",
      items: [
        { id: "1", content: "Write the parser", status: "completed", activeForm: "Writing the parser" },
        { id: "2", content: "Add tests", status: "completed", activeForm: "Adding tests" },
      ],
    });
    expect(state.plan).toMatchObject({ text: "1. Parse the input\n2. Test the parser", approved: true });
    expect(fileTable(state)).toEqual(["/work/demo/src/parser.ts r0 w1 edit", "/work/demo/README.md r1 w0 read"]);
    expect(state.tools.failures).toEqual([
      {
        tool: "Write",
        message: "File has not been read yet. Read it first before writing to it.",
        timestamp: "2026-03-01T10:00:12.000Z",
      },
    ]);
    // Stated before the compaction, repeated by its summary: kept once, as the newest.
    expect(state.decisions.map((d) => `${d.source}: ${d.text}`)).toEqual([
      "compact-summary: Let's go with pnpm for this repo.",
      "reply: The approach is to publish after review.",
    ]);
    expect(state.preferences.map((d) => d.text)).toEqual([
      "Never commit directly to main.",
      "Please use conventional commits.",
    ]);
    expect(state.conversation[0]?.kind).toBe("compact-summary");
    expect(state.conversation.at(-1)).toMatchObject({
      text: "Both tasks are done. The approach is to publish after review.\nNothing else is pending.",
      tokens: 31,
    });
    // The API error after the last reply does not count.
    expect(state.contextTokens).toBe(12105);
    expect(state.session).toMatchObject({ userMessages: 1, assistantMessages: 11, compactions: 1 });
  });

  it("uses postTokens until the first reply after a boundary", () => {
    const lines = rawLines("transcripts/synthetic/task-tools.jsonl");
    const upToSummary = lines.slice(0, lines.findIndex((line) => line.includes('"isCompactSummary":true')) + 1);
    expect(extract(upToSummary, "/work/demo").contextTokens).toBe(9000);
  });

  it("skips and counts malformed, unknown and bookkeeping lines", () => {
    const state = extract(rawLines("transcripts/synthetic/malformed.jsonl"), "/work/demo");
    // Split naively, the unterminated last line is malformed too (the reader calls it truncated).
    expect(state.skipped).toEqual({ malformed: 5, "unknown-type": 1, meta: 2, "too-long": 0, truncated: 0 });
    expect(state.session.title).toBe("Synthetic: malformed lines");
    expect(state.preferences.map((p) => p.text)).toEqual(["Please always run the tests before committing."]);
    expect(state.decisions.map((p) => p.text)).toEqual(["I'll use vitest for the new tests."]);
    expect(state.contextTokens).toBe(3210);
  });
});

describe("bounds", () => {
  it("keeps a state from a huge session small, newest kept", () => {
    const builder = new ContextStateBuilder(options("/big"));
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    for (let i = 0; i < 20_000; i += 1) {
      const timestamp = at(i);
      builder.add(
        parsed({
          type: "user",
          uuid: `u${i}`,
          timestamp,
          message: { content: `Always do thing ${i}. Then ${"x".repeat(900)}` },
        }),
      );
      builder.add(
        parsed({
          type: "assistant",
          uuid: `a${i}`,
          timestamp,
          message: {
            id: `m${i}`,
            model: "m",
            content: [{ type: "tool_use", id: `t${i}`, name: `Tool${i % 300}`, input: { file_path: `/big/f${i}.ts` } }],
            usage: { input_tokens: i, output_tokens: 1 },
          },
        }),
      );
      builder.add(
        parsed({
          type: "user",
          uuid: `r${i}`,
          timestamp,
          message: { content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "boom", is_error: true }] },
        }),
      );
    }
    const state = builder.build();
    const chars = state.conversation.reduce((sum, m) => sum + m.text.length, 0);
    expect(chars).toBeLessThanOrEqual(200_000);
    expect(state.conversation.at(-1)?.uuid).toBe("r19999");
    expect(state.conversationOmitted + state.conversation.length).toBe(60_000);
    expect(state.preferences).toHaveLength(50);
    expect(state.preferences.at(-1)?.text).toBe("Always do thing 19999.");
    expect(state.files).toHaveLength(0);
    expect(state.tools.failures).toHaveLength(10);
    expect(Object.keys(state.tools.calls)).toHaveLength(201);
    expect(state.tools.total).toBe(20_000);
    expect(state.contextTokens).toBe(19_999);
    expect(JSON.stringify(state).length).toBeLessThan(400_000);
  });

  it("keeps the most recently touched files", () => {
    const builder = new ContextStateBuilder(options("/big"));
    for (let i = 0; i < 1_000; i += 1) {
      builder.add(
        parsed({
          type: "assistant",
          uuid: `a${i}`,
          message: {
            id: `m${i}`,
            content: [{ type: "tool_use", id: `t${i}`, name: "Read", input: { file_path: `/big/f${i}` } }],
          },
        }),
      );
    }
    const state = builder.build();
    expect(state.files).toHaveLength(500);
    expect(state.files[0]?.path).toBe("/big/f500");
    expect(state.files.at(-1)?.path).toBe("/big/f999");
  });

  it("gives a valid empty state for no entries", () => {
    const state = extractContextState([], options());
    expect(ContextStateSchema.safeParse(state).success).toBe(true);
    expect(state).toMatchObject({ conversation: [], contextTokens: null, todos: null, files: [] });
  });
});

function parsed(value: object): ParsedLine {
  return parseTranscriptLine(JSON.stringify(value));
}
