// The picker's helpers: which clipboard tool fits the session (only one that is on PATH), and copying through it.
// The picker itself is driven through a real terminal in tests/e2e/search-picker.test.ts.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import type { ForkCandidate } from "../core/search/fork-candidates.ts";
import { copyToClipboard, findClipboardTool, PANE_LINES, paneText, pickerOption } from "./search-picker.ts";

function binWith(...tools: Array<[name: string, script: string]>): string {
  const dir = mkdtempSync(join(tmpdir(), "ctx-clipboard-"));
  mkdirSync(join(dir, "bin"));
  for (const [name, script] of tools) {
    writeFileSync(join(dir, "bin", name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, "bin", name), 0o755);
  }
  return join(dir, "bin");
}

describe("clipboard", () => {
  it("picks a tool that is on PATH and fits the display, or none", () => {
    const bin = binWith(["xsel", "cat > /dev/null"]);
    expect(findClipboardTool({ PATH: bin, DISPLAY: ":0" }, "linux")).toEqual({ command: "xsel", args: ["-ib"] });
    expect(findClipboardTool({ PATH: bin }, "linux")).toBeNull();
    expect(findClipboardTool({ PATH: bin, WAYLAND_DISPLAY: "wayland-0" }, "linux")).toBeNull();
  });

  it("copies through the tool's stdin, and says so when the tool fails", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "ctx-clipboard-out-")), "copied");
    const bin = binWith(["wl-copy", `cat > '${out}'`], ["xclip", "echo 'no display' >&2; exit 1"]);
    await copyToClipboard({ command: "wl-copy", args: [] }, "cd '/p' && claude --resume s --fork-session", {
      PATH: `${bin}:/usr/bin:/bin`,
    });
    expect(readFileSync(out, "utf8")).toBe("cd '/p' && claude --resume s --fork-session");
    const failed = await rejectedCtxError(
      copyToClipboard({ command: "xclip", args: [] }, "x", { PATH: `${bin}:/usr/bin:/bin` }),
    );
    expect(failed.message).toBe("xclip failed (exit 1): no display");
  });
});

describe("pickerOption", () => {
  it("break 4: a session's topic and folder reach @clack/prompts as one sanitized line each", () => {
    const esc = String.fromCharCode(0x1b);
    const candidate = {
      rank: 1,
      topic: `${esc}]0;owned${String.fromCharCode(7)}fix it`,
      scorePercent: 80,
      relativeDate: "yesterday",
      cwd: `/p${esc}[2J\nforged`,
      project: "-p",
      starred: false,
      labels: [],
      note: null,
    } as unknown as ForkCandidate;
    const option = pickerOption(candidate);
    expect(option.label).toBe("1. \\u001b]0;owned\\u0007fix it");
    expect(option.hint).toBe("80% · yesterday · /p\\u001b[2J\\nforged");
    expect(option.value).toBe(candidate);
  });

  it("shows your star and tags in the label and your note in the hint", () => {
    const candidate = {
      rank: 2,
      topic: "Fix the login retry",
      scorePercent: 64,
      relativeDate: "3 days ago",
      cwd: "/src/app",
      project: "-src-app",
      starred: true,
      labels: ["auth", "db"],
      note: "the retry with backoff is the one that worked",
    } as unknown as ForkCandidate;
    const option = pickerOption(candidate);
    expect(option.label).toBe("2. ★ Fix the login retry  [auth, db]");
    expect(option.hint).toBe("64% · 3 days ago · /src/app · note: the retry with backoff is the one that worked");
  });
});

describe("the preview pane", () => {
  it("follows the highlighted session's hint: its score line, then its preview once loaded", () => {
    let loaded: string | null = null;
    const option = pickerOption(
      {
        rank: 2,
        topic: "fix it",
        scorePercent: 70,
        relativeDate: "today",
        cwd: "/p",
        project: "-p",
        starred: false,
        labels: [],
        note: null,
      } as unknown as ForkCandidate,
      () => loaded,
    );
    expect(option.label).toBe("2. fix it");
    expect(option.hint).toBe("70% · today · /p");
    loaded = paneText("── 1 ──\n> the prompt");
    expect(option.hint).toBe("70% · today · /p\n      ── 1 ──\n      > the prompt");
  });

  it("break 4: keeps to its lines, each one sanitized line cut to the pane's width", () => {
    const esc = String.fromCharCode(0x1b);
    const preview = [
      `> ${esc}]52;c;cHduZWQ=${String.fromCharCode(7)}x\r`,
      `> ${"w".repeat(5_000)}`,
      ...Array(40).fill("> more"),
    ];
    const lines = paneText(preview.join("\n")).split("\n");
    expect(lines).toHaveLength(PANE_LINES);
    expect(lines[0]).toBe("      > \\u001b]52;c;cHduZWQ=\\u0007x\\r");
    expect(lines[1]?.length).toBeLessThanOrEqual(6 + 110);
    expect(lines.join("")).not.toContain(esc);
  });
});
