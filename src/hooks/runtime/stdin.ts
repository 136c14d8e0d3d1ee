// stdin as a hook or status-line process reads it: all of it, bounded in bytes (a larger input is refused unread
// rather than held in memory) and in time (Claude Code writes the whole input at once and closes stdin; one left
// open must not stall the session). One reader for both sources: a file descriptor, what a hook process uses
// (`process.stdin` builds a stream, for Claude Code's socket a net.Socket, whose modules cost a hook process
// milliseconds: bench/hooks.bench.ts), and a stream (`ctx hook` and `ctx statusline` through the program, tests).
import { fstatSync, read } from "node:fs";

const STDIN_LIMIT_MS = 5_000;
/** A hook's input is a few KB (a PostToolUse with a large tool response, a few MB); past this it is refused
 *  unread rather than held in memory (600 MB once took 1.9 GB and ended in ERR_STRING_TOO_LONG). */
export const STDIN_LIMIT_BYTES = 16 * 1024 * 1024;

export class StdinTooLargeError extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`stdin is larger than ${Math.round(limitBytes / (1024 * 1024))} MiB`);
    this.limitBytes = limitBytes;
  }
}

/** What {@link readStdin} got: the text, and whether a read was still waiting when the time limit ended it. */
export interface StdinRead {
  text: string;
  /**
   * A thread of libuv's pool is still blocked in that read, and Node's exit waits for it: the process must
   * then end by a signal once its reply is written (src/bin/main.ts), or it would live until the writer closes.
   * Always false for a stream.
   */
  abandoned: boolean;
}

/** All of stdin as UTF-8, or what arrived by the time limit; StdinTooLargeError past the byte limit. A terminal
 *  gives "" (nobody is typing a hook's JSON). */
export function readStdin(
  stdin: NodeJS.ReadStream | number,
  limitBytes: number = STDIN_LIMIT_BYTES,
  limitMs: number = STDIN_LIMIT_MS,
): Promise<StdinRead> {
  return typeof stdin === "number"
    ? readDescriptor(stdin, limitBytes, limitMs)
    : readStream(stdin, limitBytes, limitMs);
}

interface Collector {
  readonly done: boolean;
  readonly timer: NodeJS.Timeout;
  add(chunk: Buffer): void;
  finish(error?: Error): void;
}

/** What both sources share: the chunks up to the byte limit, the time limit, and one ending (the text or an error). */
function collect(limitBytes: number, limitMs: number, end: (outcome: string | Error) => void): Collector {
  const chunks: Buffer[] = [];
  let total = 0;
  let done = false;
  const finish = (error?: Error) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    end(error ?? Buffer.concat(chunks).toString("utf8"));
  };
  const timer = setTimeout(() => finish(), limitMs);
  return {
    get done() {
      return done;
    },
    timer,
    add(chunk) {
      total += chunk.length;
      if (total <= limitBytes) return void chunks.push(chunk);
      chunks.length = 0;
      finish(new StdinTooLargeError(limitBytes));
    },
    finish,
  };
}

/** `fs.read` on libuv's thread pool: costs next to nothing, and leaves the timer free to end a read that never ends. */
function readDescriptor(fd: number, limitBytes: number, limitMs: number): Promise<StdinRead> {
  if (fstatSync(fd).isCharacterDevice()) return Promise.resolve({ text: "", abandoned: false });
  let reading = false;
  return new Promise((resolve, reject) => {
    const input = collect(limitBytes, limitMs, (outcome) =>
      typeof outcome === "string" ? resolve({ text: outcome, abandoned: reading }) : reject(outcome),
    );
    const next = () => {
      if (input.done) return; // a retry timer that outlived the read: the descriptor may be another file's by now
      const buffer = Buffer.allocUnsafe(64 * 1024);
      reading = true;
      read(fd, buffer, 0, buffer.length, null, (error, bytes) => {
        reading = false;
        if (input.done) return;
        // A descriptor left non-blocking by the writer: nothing yet, look again shortly (the timer still bounds it).
        if (error?.code === "EAGAIN") return void setTimeout(next, 1);
        if (error) return input.finish(error);
        if (bytes === 0) return input.finish();
        input.add(buffer.subarray(0, bytes));
        next();
      });
    };
    next();
  });
}

function readStream(stdin: NodeJS.ReadStream, limitBytes: number, limitMs: number): Promise<StdinRead> {
  if (stdin.isTTY) return Promise.resolve({ text: "", abandoned: false });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => input.add(chunk);
    const input = collect(limitBytes, limitMs, (outcome) => {
      stdin.pause();
      stdin.removeListener("data", onData);
      if (typeof outcome === "string") resolve({ text: outcome, abandoned: false });
      else reject(outcome);
    });
    input.timer.unref();
    stdin.on("data", onData);
    stdin.on("end", () => input.finish());
    stdin.on("error", (error) => input.finish(error));
  });
}
