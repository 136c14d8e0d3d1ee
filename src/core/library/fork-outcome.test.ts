import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isSkipped, parseTranscriptLine, type TranscriptEntry } from "../transcript/entries.ts";
import {
  ABANDONED_TURNS,
  createForkOutcomeReader,
  type ForkOwnPart,
  forkVerdict,
  PAID_OFF_TURNS,
} from "./fork-outcome.ts";

const FIXTURES = new URL("../../../tests/fixtures/forks/", import.meta.url);
const SOURCE = "d2e2675e-9085-415a-b095-cefa3b4cb8f2";
const FORK = "41bc45fa-0233-4d74-bf70-2109cda90960";

function entriesOf(name: string): TranscriptEntry[] {
  return readFileSync(new URL(name, FIXTURES), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(parseTranscriptLine)
    .filter((line): line is TranscriptEntry => !isSkipped(line));
}

function ownPartOf(entries: readonly TranscriptEntry[], sessionId: string, points: string[] = []): ForkOwnPart {
  const reader = createForkOutcomeReader(sessionId, new Set(points));
  for (const entry of entries) reader.add(entry);
  return reader.finish();
}

describe("a fork's own part, on a fork made by Claude Code 2.1.330", () => {
  it("skips the copy of its source and counts its own prompt, replies and the file it wrote", () => {
    const own = ownPartOf(entriesOf("fork.jsonl"), FORK);
    expect(own.prompts).toBe(1);
    expect(own.replies).toBe(2);
    expect(own.filesModified).toEqual(["/home/user/work/project/b.txt"]);
    expect(own.firstAt).toBe(Date.parse("2026-12-02T04:13:10.220Z"));
    expect(own.lastAt).toBeGreaterThan(own.firstAt ?? 0);
    expect(own.sawPoint).toBeNull();
  });

  it("reads a session that copied nothing as all its own", () => {
    const own = ownPartOf(entriesOf("source.jsonl"), SOURCE);
    expect(own.prompts).toBe(1);
    expect(own.filesModified).toEqual(["/home/user/work/project/a.txt"]);
  });

  it("names the offered point the copy ended at", () => {
    const point = "e4d51e95-b1e9-4c8f-bd01-01f24247cc3f";
    expect(ownPartOf(entriesOf("fork.jsonl"), FORK, [point, "not-there"]).sawPoint).toBe(point);
  });
});

describe("files modified", () => {
  const line = (value: object) => parseTranscriptLine(JSON.stringify(value)) as TranscriptEntry;
  const envelope = { sessionId: "s", timestamp: "2026-12-01T10:00:00.000Z", parentUuid: null, isSidechain: false };
  const call = (uuid: string, id: string, name: string, input: object) =>
    line({
      ...envelope,
      type: "assistant",
      uuid,
      message: { id: `m-${uuid}`, role: "assistant", model: "m", content: [{ type: "tool_use", id, name, input }] },
    });
  const result = (uuid: string, id: string, isError: boolean) =>
    line({
      ...envelope,
      type: "user",
      uuid,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, is_error: isError, content: "x" }] },
    });

  it("counts Edit, Write, MultiEdit and NotebookEdit once per file, not a failed call, not Bash or Read", () => {
    const own = ownPartOf(
      [
        call("1", "t1", "Edit", { file_path: "/a.ts" }),
        result("2", "t1", false),
        call("3", "t2", "Write", { file_path: "/a.ts" }),
        result("4", "t2", false),
        call("5", "t3", "Write", { file_path: "/rejected.ts" }),
        result("6", "t3", true),
        call("7", "t4", "NotebookEdit", { notebook_path: "/n.ipynb" }),
        result("8", "t4", false),
        call("9", "t5", "Bash", { command: "sed -i s/a/b/ /c.ts" }),
        call("10", "t6", "Read", { file_path: "/d.ts" }),
        // No result yet (still running): counted, Claude Code writes the result after the call took effect.
        call("11", "t7", "MultiEdit", { file_path: "/e.ts" }),
      ],
      "s",
    );
    expect(own.filesModified).toEqual(["/a.ts", "/n.ipynb", "/e.ts"]);
    expect(own.filesModifiedCount).toBe(3);
    expect(own.prompts).toBe(0);
  });
});

describe("forkVerdict", () => {
  const own = (prompts: number, files = 0): ForkOwnPart => ({
    prompts,
    replies: prompts,
    filesModified: [],
    filesModifiedCount: files,
    firstAt: null,
    lastAt: null,
    sawPoint: null,
  });

  it("abandoned at ABANDONED_TURNS prompts with nothing done, paid off on an edit, a fork or PAID_OFF_TURNS", () => {
    expect(forkVerdict(own(ABANDONED_TURNS), false)).toBe("abandoned");
    expect(forkVerdict(own(ABANDONED_TURNS + 1), false)).toBe("continued");
    expect(forkVerdict(own(1, 1), false)).toBe("paid-off");
    expect(forkVerdict(own(1), true)).toBe("paid-off");
    expect(forkVerdict(own(PAID_OFF_TURNS), false)).toBe("paid-off");
  });
});
