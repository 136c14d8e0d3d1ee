// An imported bundle's files staged in ctx's own folder as they are read (the second read: the first checked the
// bundle whole), each transcript line's `cwd` fields moved from the other machine's checkout into this one
// (core/transplant/transcript-cwd.ts rewriteTranscriptLine, one line at a time), with the staged copy's size and
// SHA-256 for the comparison with what Claude Code's folder holds. Files are named by their order, never by the
// bundle's entry names.
import { createHash, type Hash } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { type CwdRewrite, rewriteTranscriptLine } from "../core/transplant/transcript-cwd.ts";
import type { FileSink } from "../store/archive/archive-container.ts";
import { LineSplitter } from "./line-splitter.ts";

const FLUSH_BYTES = 1 << 20;
const NEWLINE = Buffer.from("\n");

export interface StagedFile {
  path: string;
  sha256: string;
  rewritten: number;
}

export class RewritingSink implements FileSink {
  /** By entry name. */
  readonly staged = new Map<string, StagedFile>();
  private count = 0;
  private name = "";
  private path = "";
  private handle: FileHandle | null = null;
  private hash: Hash = createHash("sha256");
  private lines = new LineSplitter();
  private lineNumber = 0;
  private rewritten = 0;
  private readonly buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;

  /** `rewrites`: each entry's move (null: its lines are kept as they are). */
  private readonly folder: string;
  private readonly rewrites: ReadonlyMap<string, CwdRewrite | null>;

  constructor(folder: string, rewrites: ReadonlyMap<string, CwdRewrite | null>) {
    this.folder = folder;
    this.rewrites = rewrites;
  }

  async open(name: string): Promise<void> {
    this.name = name;
    this.path = join(this.folder, `entry-${this.count++}.jsonl`);
    this.handle = await open(this.path, "wx", 0o600);
    this.hash = createHash("sha256");
    this.lines = new LineSplitter();
    this.lineNumber = 0;
    this.rewritten = 0;
  }

  async write(chunk: Uint8Array): Promise<void> {
    // The lines are views into the reader's chunk (or a line gathered across chunks): used before this returns.
    const lines: Buffer[] = [];
    this.lines.push(chunk, (line) => lines.push(line));
    for (const line of lines) await this.take(line, true);
  }

  async close(): Promise<void> {
    const last: Buffer[] = [];
    this.lines.end((line) => last.push(line));
    for (const line of last) await this.take(line, false);
    await this.flush();
    await this.handle?.close();
    this.handle = null;
    this.staged.set(this.name, { path: this.path, sha256: this.hash.digest("hex"), rewritten: this.rewritten });
  }

  private async take(line: Buffer, newline: boolean): Promise<void> {
    this.lineNumber += 1;
    const rewrite = this.rewrites.get(this.name) ?? null;
    let out: Uint8Array = line;
    if (rewrite !== null && line.indexOf('"cwd"') >= 0) {
      const moved = rewriteTranscriptLine(line.toString("utf8"), rewrite, this.lineNumber);
      if (moved.rewritten > 0) out = Buffer.from(moved.line, "utf8");
      this.rewritten += moved.rewritten;
    }
    await this.keep(out);
    if (newline) await this.keep(NEWLINE);
  }

  /** Copied into one reused buffer that reaches the disk a MiB at a time (no buffer per line: see bench/bundle). */
  private async keep(bytes: Uint8Array): Promise<void> {
    this.hash.update(bytes);
    if (this.used + bytes.length > this.buffer.length) await this.flush();
    if (bytes.length > this.buffer.length) {
      await this.writeOut(bytes);
      return;
    }
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.writeOut(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private async writeOut(data: Uint8Array): Promise<void> {
    if (this.handle === null) return;
    for (let at = 0; at < data.length; ) at += (await this.handle.write(data, at, data.length - at)).bytesWritten;
  }
}
