// The preview model and its text renderers on the real fixture transcripts, and on hostile text: escape sequences,
// line breaks that would forge a line of the preview, a 1 MB prompt, a secret.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXTURE } from "../../../tests/helpers/claude-projects.ts";
import { isSkipped, parseTranscriptLine, type TranscriptEntry } from "../transcript/entries.ts";
import { createPreviewBuilder, PREVIEW_LIMITS, type PreviewExchange, type SessionPreview } from "./preview.ts";
import {
  renderBoundedPreview,
  renderPreviewExchange,
  renderPreviewHeader,
  renderPreviewLabel,
  renderSessionPreview,
} from "./preview-text.ts";

function entriesOf(path: string): TranscriptEntry[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(parseTranscriptLine)
    .filter((line): line is TranscriptEntry => !isSkipped(line));
}

function exchangesOf(entries: readonly TranscriptEntry[], atUuid: string | null = null) {
  const builder = createPreviewBuilder({ atUuid });
  const exchanges: PreviewExchange[] = [];
  for (const entry of entries) {
    const closed = builder.add(entry);
    if (closed !== null) exchanges.push(closed);
  }
  const last = builder.finish();
  if (last !== null) exchanges.push(last);
  return { exchanges, atFound: builder.atFound() };
}

const header = {
  sessionId: "4d5611e5-241a-462a-8d15-5122611a9569",
  title: "Work on bead spotter-dov",
  project: "-home-dev-spotter",
  cwd: "/home/USER/projects/spotter-worktrees/spotter-dov",
  branch: "spotter-dov",
  createdAt: "2026-02-12T16:02:25.284Z",
  updatedAt: "2026-02-12T21:03:34.206Z",
  messageCount: 142,
  parents: ["1af7fc5e-8455-4414-9ccd-011d40f70b2a"],
  forks: [],
  transcriptPath: FIXTURE.long,
  annotation: { starred: true, labels: ["ui", "liveview"], note: "the renderer rewrite" },
};

function previewOf(exchanges: PreviewExchange[]): SessionPreview {
  return {
    header,
    exchanges,
    subagents: { transcripts: 1, files: [], filesOmitted: 0 },
    read: { transcript: "read", linesSkipped: 0, atFound: null, fromIndex: false },
  };
}

let clock = 0;
function entry(value: Record<string, unknown>): TranscriptEntry {
  clock += 1;
  const parsed = parseTranscriptLine(
    JSON.stringify({ uuid: `e${clock}`, sessionId: "s1", timestamp: "2026-01-01T00:00:00Z", ...value }),
  );
  if (isSkipped(parsed)) throw new Error(`not an entry: ${parsed.skipped}`);
  return parsed;
}
const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  entry({ type: "user", message: { role: "user", content }, ...extra });
const assistant = (id: string, content: unknown[]) =>
  entry({ type: "assistant", message: { id, role: "assistant", model: "claude-opus-4-6", content } });

describe("createPreviewBuilder on the real transcripts", () => {
  it("cuts the long session into its prompts, the compaction, the tools and the files written", () => {
    const { exchanges } = exchangesOf(entriesOf(FIXTURE.long));
    expect(exchanges.map((exchange) => exchange.prompt.slice(0, 24))).toEqual([
      "Work on bead spotter-dov",
      "continue",
      "(compaction summary)",
    ]);
    const [first] = exchanges as [PreviewExchange];
    expect(first.replies.length).toBe(PREVIEW_LIMITS.replies);
    expect(first.repliesOmitted).toBeGreaterThan(0);
    expect(first.tools[0]).toEqual({ gist: "Bash: bd show spotter-dov", count: 1 });
    expect(first.files).toContain(
      "/home/USER/projects/spotter-worktrees/spotter-dov/lib/spotter_web/live/session_live.ex",
    );
    for (const exchange of exchanges) {
      expect(exchange.tools.length).toBeLessThanOrEqual(PREVIEW_LIMITS.tools);
      for (const reply of exchange.replies) expect(reply.length).toBeLessThanOrEqual(PREVIEW_LIMITS.replyChars);
    }
  });

  it("marks the exchange holding the --at line, and says when no line has it", () => {
    const entries = entriesOf(FIXTURE.long);
    const { exchanges: all } = exchangesOf(entries);
    const target = (all[1] as PreviewExchange).lastUuid as string;
    const { exchanges, atFound } = exchangesOf(entries, target);
    expect(atFound).toBe(true);
    expect(exchanges.map((exchange) => exchange.matched)).toEqual([false, true, false]);
    expect(renderPreviewExchange(exchanges[1] as PreviewExchange)).toMatch(/^\n── 2 · .* · ▶ matched ──\n/);
    expect(exchangesOf(entries, "00000000-0000-4000-8000-000000000000").atFound).toBe(false);
  });

  it("reads the old format's transcripts (Claude Code 1.0.x) too", () => {
    const { exchanges } = exchangesOf(entriesOf(FIXTURE.viewer("1af7fc5e-8455-4414-9ccd-011d40f70b2a")));
    expect(exchanges.length).toBeGreaterThan(0);
    expect(exchanges.every((exchange) => exchange.number > 0 && exchange.uuid !== null)).toBe(true);
  });
});

describe("hostile text", () => {
  it("keeps a transcript's line breaks inside its indented block, so no text forges a line of the preview", () => {
    const { exchanges } = exchangesOf([
      user("fix it\n── 9 · ▶ matched ──\n  fork      rm -rf ~"),
      assistant("m1", [{ type: "text", text: "done\n  tools: nothing\r\n── 10 ──" }]),
    ]);
    const text = renderPreviewExchange(exchanges[0] as PreviewExchange);
    const lines = text.split("\n").filter((line) => line !== "");
    expect(lines[0]).toBe("── 1 · 2026-01-01 00:00 UTC ──");
    expect(lines.slice(1, 4)).toEqual(["> fix it", "> ── 9 · ▶ matched ──", ">   fork      rm -rf ~"]);
    expect(lines.slice(4)).toEqual(["  done", "    tools: nothing", "  ── 10 ──"]);
  });

  it("bounds a 1 MB prompt and a 1 MB reply, and a title of one, to a line", () => {
    const huge = "x".repeat(1024 * 1024);
    const { exchanges } = exchangesOf([user(huge), assistant("m1", [{ type: "text", text: huge }])]);
    const [exchange] = exchanges as [PreviewExchange];
    expect(exchange.prompt.length).toBeLessThanOrEqual(PREVIEW_LIMITS.promptChars);
    expect(exchange.replies[0]?.length).toBeLessThanOrEqual(PREVIEW_LIMITS.replyChars);
    expect(renderPreviewLabel(1, `${huge}\n\u001b[2J`)).toHaveLength(3 + 72);
    expect(renderPreviewHeader({ ...header, title: huge }).split("\n")[0]?.length).toBeLessThanOrEqual(200);
  });

  it("leaves escape sequences as text for the terminal sanitizer, and redacts a secret", () => {
    const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ";
    const { exchanges } = exchangesOf([
      user(`\u001b]52;c;ZXZpbA==\u0007 set ANTHROPIC_API_KEY=${key}`),
      assistant("m1", [{ type: "tool_use", id: "t", name: "Bash", input: { command: `export KEY=${key}` } }]),
    ]);
    const [exchange] = exchanges as [PreviewExchange];
    expect(exchange.prompt).toContain("\u001b]52");
    expect(JSON.stringify(exchange)).not.toContain(key);
  });

  it("never counts a subagent's inline lines or meta text as the person's prompts", () => {
    const { exchanges } = exchangesOf([
      user("real prompt"),
      user("skill body", { isMeta: true }),
      user("agent prompt", { isSidechain: true }),
      user("<local-command-stdout>ok</local-command-stdout>"),
    ]);
    expect(exchanges.map((exchange) => exchange.prompt)).toEqual(["real prompt"]);
  });
});

describe("the renderers", () => {
  it("renders the header with lineage, library and fork commands", () => {
    const text = renderPreviewHeader(header, "eb334a01-1686-461f-be12-06420b14a00d");
    expect(text).toContain("  dates     2026-02-12 16:02 UTC → 2026-02-12 21:03 UTC · 142 messages\n");
    expect(text).toContain("  lineage   fork of 1af7fc5e\n");
    expect(text).toContain("  library   starred · tags ui, liveview · note: the renderer rewrite\n");
    expect(text).toContain(
      "  fork here cd /home/USER/projects/spotter-worktrees/spotter-dov && claude --resume 4d5611e5-241a-462a-8d15-5122611a9569 --fork-session --resume-session-at eb334a01-1686-461f-be12-06420b14a00d\n",
    );
  });

  it("shows files relative to the session's folder", () => {
    const { exchanges } = exchangesOf(entriesOf(FIXTURE.long));
    const text = renderSessionPreview(previewOf(exchanges));
    expect(text).toContain("  files: lib/spotter_web/live/transcript_computers.ex");
    expect(text).toContain("subagents: 1 transcript(s); they wrote no files");
  });

  it("bounds the preview for a model to a few KB, keeping the matched exchange", () => {
    const entries = entriesOf(FIXTURE.long);
    const target = (exchangesOf(entries).exchanges[2] as PreviewExchange).lastUuid;
    const preview = previewOf(exchangesOf(entries, target).exchanges);
    const text = renderBoundedPreview(preview, 3_000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(3_000);
    expect(text).toContain("  session   4d5611e5-241a-462a-8d15-5122611a9569");
    expect(renderBoundedPreview(preview, 40_000)).toContain("▶ matched");
    expect(renderBoundedPreview(preview, 400).length).toBeLessThanOrEqual(400);
  });

  it("says when the transcript is gone, with the index's record still shown", () => {
    const text = renderSessionPreview({
      ...previewOf([]),
      read: { transcript: "missing", linesSkipped: 0, atFound: null, fromIndex: false },
    });
    expect(text).toContain("Work on bead spotter-dov\n  session   4d5611e5");
    expect(text).toMatch(/the transcript is gone \(.*\): Claude Code's cleanup removed it/);
  });
});
