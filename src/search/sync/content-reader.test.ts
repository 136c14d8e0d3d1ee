import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURE } from "../../../tests/helpers/claude-projects.ts";
import { createContentReader } from "./content-reader.ts";
import { type ContentJob, readFileContent } from "./sync-file.ts";

const job = (path: string): ContentJob => ({
  textDictionary: null,
  path,
  sessionId: "s",
  kind: "main",
  from: 0,
  firstOrdinal: 0,
  firstChunkIndex: 0,
});

describe("the sync's content reader", () => {
  it("a worker thread reads a transcript exactly as this thread does, and passes a read error on", async () => {
    const reader = createContentReader({ thread: true });
    try {
      const path = FIXTURE.viewer("fe5e1c67-53e7-4862-81ae-d0e013e3270b");
      const [there, here] = await Promise.all([reader.read(job(path)), readFileContent(job(path))]);
      expect(there.chunks.length).toBeGreaterThan(3);
      // The worker sends the tokens as UTF-8 bytes.
      const decoder = new TextDecoder();
      const tokens = there.chunks.map((row) => (typeof row.tokens === "string" ? "" : decoder.decode(row.tokens)));
      expect(tokens).toEqual(here.chunks.map((row) => row.tokens));
      expect({ ...there, chunks: there.chunks.map((row) => ({ ...row, tokens: "" })) }).toEqual({
        ...here,
        chunks: here.chunks.map((row) => ({ ...row, tokens: "" })),
      });
      const directory = mkdtempSync(join(tmpdir(), "ctx-reader-"));
      // Only a regular file is read: a folder in a transcript's place is UNSAFE_PATH (a FIFO would have blocked).
      await expect(reader.read(job(directory))).rejects.toMatchObject({ code: "UNSAFE_PATH" });
      // Still the worker: it did not fail and hand its work back to this thread.
      expect(reader.threaded).toBe(true);
    } finally {
      await reader.close();
    }
  });

  it("a worker that runs out of its memory cap hands its files back: they are read here, with the same result", async () => {
    const reader = createContentReader({ thread: true, oldGenerationMb: 8, workers: 1 });
    try {
      const path = FIXTURE.long;
      expect(await reader.read(job(path))).toEqual(await readFileContent(job(path)));
      expect(reader.threaded).toBe(false);
    } finally {
      await reader.close();
    }
  });

  it("two workers read files side by side, each file's content as this thread reads it, in the order asked for", async () => {
    const reader = createContentReader({ thread: true, workers: 2 });
    try {
      const paths = [
        FIXTURE.long,
        FIXTURE.short,
        FIXTURE.viewer("fe5e1c67-53e7-4862-81ae-d0e013e3270b"),
        FIXTURE.viewer("1af7fc5e-8455-4414-9ccd-011d40f70b2a"),
      ];
      const there = await Promise.all(paths.map((path) => reader.read(job(path))));
      const here = await Promise.all(paths.map((path) => readFileContent(job(path))));
      const decoder = new TextDecoder();
      const plain = (content: (typeof there)[number]) => ({
        ...content,
        chunks: content.chunks.map((row) => ({
          ...row,
          tokens: typeof row.tokens === "string" ? row.tokens : decoder.decode(row.tokens),
        })),
      });
      expect(there.map(plain)).toEqual(here.map(plain));
      expect(reader.threaded).toBe(true);
    } finally {
      await reader.close();
    }
  });

  it("reads in this thread when asked to", async () => {
    const reader = createContentReader({ thread: false });
    expect(reader.threaded).toBe(false);
    const path = FIXTURE.short;
    expect(await reader.read(job(path))).toEqual(await readFileContent(job(path)));
    await reader.close();
  });
});
