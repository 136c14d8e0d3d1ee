import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContextStateBuilder, extractContextState } from "../../core/context/extract.ts";
import { isSkipped, parseTranscriptLine, type TranscriptEntry } from "../../core/transcript/entries.ts";
import {
  findLastCompactionBoundary,
  readSinceLastCompaction,
  readTranscriptEntries,
  type TranscriptLine,
} from "./reader.ts";

const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures");
const LONG = join(
  FIXTURES,
  "claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
);
const TASKS = join(FIXTURES, "transcripts/synthetic/task-tools.jsonl");
const MALFORMED = join(FIXTURES, "transcripts/synthetic/malformed.jsonl");

async function collect(read: AsyncIterable<TranscriptLine>): Promise<TranscriptLine[]> {
  const lines: TranscriptLine[] = [];
  for await (const line of read) lines.push(line);
  return lines;
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "transcript-reader-"));
}

/** Byte offset where each line starts, found the simple way. */
function lineOffsets(path: string): number[] {
  const bytes = readFileSync(path);
  const offsets = [0];
  for (let i = 0; i < bytes.length; i += 1) if (bytes[i] === 0x0a && i + 1 < bytes.length) offsets.push(i + 1);
  return offsets;
}

describe("readTranscriptEntries", () => {
  it("reads every line with offsets that tile the file", async () => {
    const read = readTranscriptEntries(LONG, { chunkBytes: 4096 });
    const lines = await collect(read);
    expect(lines).toHaveLength(1512);
    expect(lines.map((line) => line.offset)).toEqual(lineOffsets(LONG));
    for (let i = 1; i < lines.length; i += 1) {
      expect(lines[i]?.offset).toBe((lines[i - 1]?.offset ?? 0) + (lines[i - 1]?.lineLength ?? 0));
    }
    const size = readFileSync(LONG).length;
    expect(read.stats).toMatchObject({ linesRead: 1512, bytesRead: size, fileSize: size, nextOffset: size });
    expect(read.stats.skipped.meta).toBe(1098);
  });

  it("resumes from nextOffset and from any line's end", async () => {
    const all = await collect(readTranscriptEntries(TASKS));
    const middle = all[10] as TranscriptLine;
    const rest = await collect(readTranscriptEntries(TASKS, { fromOffset: middle.offset + middle.lineLength }));
    expect(rest.map((line) => line.offset)).toEqual(all.slice(11).map((line) => line.offset));
    expect(rest[0]?.entry).toEqual(all[11]?.entry);
  });

  it("skips to the next line when started inside one", async () => {
    const all = await collect(readTranscriptEntries(TASKS));
    const third = all[2] as TranscriptLine;
    const read = readTranscriptEntries(TASKS, { fromOffset: third.offset + 5 });
    const lines = await collect(read);
    expect(lines[0]?.offset).toBe(all[3]?.offset);
    expect(read.stats.skipped.malformed).toBe(0);
  });

  it("counts garbage, unknown types and bookkeeping, tolerates CRLF, and leaves a truncated last line", async () => {
    const read = readTranscriptEntries(MALFORMED);
    const lines = await collect(read);
    const entries = lines.map((line) => line.entry).filter((entry): entry is TranscriptEntry => !isSkipped(entry));
    expect(entries.map((entry) => entry.type)).toEqual(["summary", "user", "assistant"]);
    expect(read.stats.skipped).toEqual({ malformed: 4, "unknown-type": 1, meta: 2, "too-long": 0, truncated: 1 });
    const last = lines.at(-1) as TranscriptLine;
    expect(last).toMatchObject({ entry: { skipped: "truncated" }, lineLength: 0 });
    expect(read.stats.nextOffset).toBe(last.offset);
  });

  it("reads a truncated last line once the writer finishes it", async () => {
    const dir = tempDir();
    const path = join(dir, "growing.jsonl");
    const whole = readFileSync(TASKS, "utf8").split("\n");
    const cut = 40;
    writeFileSync(path, `${whole[0]}\n${whole[1]?.slice(0, cut)}`);
    const first = readTranscriptEntries(path);
    await collect(first);
    expect(first.stats.skipped.truncated).toBe(1);
    appendFileSync(path, `${whole[1]?.slice(cut)}\n`);
    const second = await collect(readTranscriptEntries(path, { fromOffset: first.stats.nextOffset }));
    expect(second).toHaveLength(1);
    expect(second[0]?.entry).toEqual(parseTranscriptLine(whole[1] ?? ""));
  });

  it("skips a line over the cap without buffering it, and reads on", async () => {
    const dir = tempDir();
    const path = join(dir, "long-line.jsonl");
    const small = '{"type":"summary","summary":"before"}';
    const huge = JSON.stringify({ type: "summary", summary: "x".repeat(50_000) });
    writeFileSync(path, `${small}\n${huge}\n${small.replace("before", "after")}\n${huge}`);
    const read = readTranscriptEntries(path, { maxLineBytes: 10_000, chunkBytes: 1024 });
    const lines = await collect(read);
    expect(lines.map((line) => ("skipped" in line.entry ? line.entry.skipped : line.entry.type))).toEqual([
      "summary",
      "too-long",
      "summary",
      "truncated",
    ]);
    expect(lines[1]?.lineLength).toBe(huge.length + 1);
    expect(lines[2]?.offset).toBe(small.length + 1 + huge.length + 1);
  });

  it("reads nothing from a missing file", async () => {
    const read = readTranscriptEntries(join(tempDir(), "absent.jsonl"));
    expect(await collect(read)).toEqual([]);
    expect(read.stats.fileSize).toBeNull();
  });
});

describe("findLastCompactionBoundary", () => {
  it("finds line 754 of the long session, whatever the block size", async () => {
    const expected = lineOffsets(LONG)[753];
    for (const blockBytes of [499, 4096, 65_536, 10_000_000]) {
      const found = await findLastCompactionBoundary(LONG, { blockBytes });
      expect(found.offset).toBe(expected);
    }
  });

  it("is not fooled by the needle in ordinary content after the boundary", async () => {
    const found = await findLastCompactionBoundary(TASKS, { blockBytes: 64 });
    const boundaryLine = readFileSync(TASKS, "utf8")
      .split("\n")
      .findIndex((line) => line.includes('"subtype":"compact_boundary"'));
    expect(found.offset).toBe(lineOffsets(TASKS)[boundaryLine]);
  });

  it("checks a line full of needles once, and passes over one longer than the cap", async () => {
    const dir = tempDir();
    const path = join(dir, "needles.jsonl");
    const boundary = JSON.stringify({ type: "system", subtype: "compact_boundary", uuid: "b", compactMetadata: {} });
    const noisy = JSON.stringify({
      type: "user",
      uuid: "n",
      message: { content: "structured result" },
      toolUseResult: { items: Array.from({ length: 20_000 }, () => ({ subtype: "compact_boundary" })) },
    });
    writeFileSync(path, `${boundary}\n${noisy}\n${noisy}\n`);
    const found = await findLastCompactionBoundary(path, { blockBytes: 64 * 1024 });
    expect(found.offset).toBe(0);
    // Each noisy line (~620 KB) is read about once, not once per needle.
    expect(found.scannedBytes).toBeLessThan(4 * readFileSync(path).length);
    const capped = await findLastCompactionBoundary(path, { blockBytes: 64 * 1024, maxLineBytes: 100_000 });
    expect(capped.offset).toBe(0);
  });

  it("reports none for a file without a boundary, and for a missing file", async () => {
    expect((await findLastCompactionBoundary(MALFORMED)).offset).toBeNull();
    expect(await findLastCompactionBoundary(join(tempDir(), "absent.jsonl"))).toEqual({
      offset: null,
      scannedBytes: 0,
    });
  });

  it("reads from the tail only: a 30 MB transcript costs what follows its boundary", async () => {
    const dir = tempDir();
    const path = join(dir, "big.jsonl");
    const fd = openSync(path, "w");
    const filler = (i: number) =>
      `${JSON.stringify({ type: "user", uuid: `u${i}`, sessionId: "s", message: { role: "user", content: `line ${i} ${"y".repeat(1000)}` } })}\n`;
    const boundary = (uuid: string) =>
      `${JSON.stringify({ type: "system", subtype: "compact_boundary", uuid, content: "Conversation compacted", compactMetadata: { trigger: "auto", preTokens: 1 } })}\n`;
    let written = 0;
    const write = (text: string) => {
      written += writeSync(fd, text);
    };
    write(boundary("early"));
    let i = 0;
    while (written < 29 * 1024 * 1024) write(filler(i++));
    const boundaryOffset = written;
    write(boundary("last"));
    // After it: a sidechain boundary and a tool call that mentions the needle, which must not count.
    write(`${JSON.stringify({ type: "system", subtype: "compact_boundary", uuid: "side", isSidechain: true })}\n`);
    write(
      `${JSON.stringify({ type: "assistant", uuid: "g", message: { content: [{ type: "tool_use", id: "t", name: "Grep", input: { pattern: "compact_boundary" } }] } })}\n`,
    );
    const tailStart = written;
    while (written < tailStart + 1024 * 1024) write(filler(i++));
    closeSync(fd);
    const afterBoundary = written - boundaryOffset;

    const found = await findLastCompactionBoundary(path);
    expect(found.offset).toBe(boundaryOffset);
    expect(written).toBeGreaterThan(30 * 1024 * 1024);
    // What follows the boundary plus a block or two of slack; far from the 30 MB file.
    expect(found.scannedBytes).toBeLessThan(afterBoundary + 300 * 1024);

    const since = await readSinceLastCompaction(path);
    expect(since.boundaryOffset).toBe(boundaryOffset);
    const builder = new ContextStateBuilder({
      sessionId: "s",
      projectRoot: "/p",
      transcriptPath: path,
      now: new Date(0),
    });
    for await (const line of since.entries) builder.add(line.entry);
    expect(since.entries.stats.bytesRead).toBe(afterBoundary);
    const state = builder.build();
    expect(state.session.compactions).toBe(1);
    expect(state.conversation.at(-1)?.uuid).toBe(`u${i - 1}`);
    expect(state.conversationOmitted).toBeGreaterThan(0);
  });
});

describe("readSinceLastCompaction", () => {
  it("starts at the boundary and gives the same state as the whole file's conversation", async () => {
    const since = await readSinceLastCompaction(LONG);
    expect(since.boundaryOffset).toBe(lineOffsets(LONG)[753]);
    const tail = await collect(since.entries);
    expect(tail).toHaveLength(1512 - 753);
    expect(tail[0]?.entry).toMatchObject({ type: "system", subtype: "compact_boundary" });

    const options = { sessionId: "s", projectRoot: "/p", transcriptPath: LONG, now: new Date(0) };
    const fromTail = extractContextState(
      tail.map((line) => line.entry),
      options,
    );
    const whole = extractContextState(
      (await collect(readTranscriptEntries(LONG))).map((line) => line.entry),
      options,
    );
    expect(fromTail.conversation).toEqual(whole.conversation);
    expect(fromTail.contextTokens).toBe(whole.contextTokens);
    expect(fromTail.session.compactions).toBe(1);
  });

  it("falls back to the whole file when there is no boundary", async () => {
    const since = await readSinceLastCompaction(TASKS.replace("task-tools", "malformed"));
    expect(since.boundaryOffset).toBeNull();
    expect((await collect(since.entries))[0]?.offset).toBe(0);
  });
});
