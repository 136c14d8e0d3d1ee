// stdin as a hook process reads it (./stdin.ts): from the descriptor, to the end, bounded in bytes and in time,
// on a FIFO standing in for Claude Code's pipe (blocking and non-blocking descriptors both), and from a stream.
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { readStdin, StdinTooLargeError } from "./stdin.ts";

const open: number[] = [];
afterEach(() => {
  for (const fd of open.splice(0)) closeSync(fd);
});

function fifo(): string {
  const path = join(mkdtempSync(join(tmpdir(), "ctx-stdin-")), "stdin");
  execFileSync("mkfifo", [path]);
  return path;
}

/** A reader (non-blocking open, so it does not wait for a writer) and a writer on a fresh FIFO. */
function pipePair(): { reader: number; writer: number } {
  const path = fifo();
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY);
  open.push(reader);
  return { reader, writer };
}

describe("readStdin", () => {
  it("reads everything the writer sent, up to its end", async () => {
    const { reader, writer } = pipePair();
    // Under the FIFO's 64 KiB: this test writes synchronously on the thread that would drain it.
    const text = `{"session_id":"s","prompt":"${"é".repeat(25_000)}"}`;
    const reading = readStdin(reader);
    writeSync(writer, text);
    closeSync(writer);
    expect(await reading).toEqual({ text, abandoned: false });
  });

  it("gives up at the time limit on a stdin that never ends, with what arrived", async () => {
    const { reader, writer } = pipePair();
    open.push(writer);
    writeSync(writer, '{"partial":');
    const started = Date.now();
    // Non-blocking: reads come back at once (EAGAIN) and are retried until the limit; one may be under way then.
    expect((await readStdin(reader, 1024, 300)).text).toBe('{"partial":');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("says when a blocking read is still waiting at the time limit (the process must then end by a signal)", async () => {
    // Opened for reading and writing: a blocking descriptor whose writer (itself) never closes.
    const fd = openSync(fifo(), constants.O_RDWR);
    open.push(fd);
    expect(await readStdin(fd, 1024, 200)).toEqual({ text: "", abandoned: true });
    writeSync(fd, "x"); // lets the waiting read on the thread pool finish, so this test process can exit
  });

  it("refuses more than the byte limit", async () => {
    const { reader, writer } = pipePair();
    const reading = readStdin(reader, 1000);
    writeSync(writer, "x".repeat(5000));
    closeSync(writer);
    await expect(reading).rejects.toBeInstanceOf(StdinTooLargeError);
  });

  it("a terminal or /dev/null gives nothing to read, at once", async () => {
    const devNull = openSync("/dev/null", "r");
    open.push(devNull);
    expect(await readStdin(devNull)).toEqual({ text: "", abandoned: false });
  });
});

describe("readStdin from a stream (`ctx hook` and `ctx statusline` through the program)", () => {
  const stream = (...parts: string[]) =>
    Readable.from(parts.map((part) => Buffer.from(part))) as unknown as NodeJS.ReadStream;

  it("reads to the end", async () => {
    expect(await readStdin(stream('{"a":', '"é"}'))).toEqual({ text: '{"a":"é"}', abandoned: false });
  });

  it("refuses more than the byte limit", async () => {
    await expect(readStdin(stream("x".repeat(600), "x".repeat(600)), 1000)).rejects.toBeInstanceOf(StdinTooLargeError);
  });
});
