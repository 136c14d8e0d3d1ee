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
  private pending: Buffer[] = [];
  private pendingBytes = 0;

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
    this.lines.push(chunk, (line) => this.take(line, true));
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }

  async close(): Promise<void> {
    this.lines.end((line) => this.take(line, false));
    await this.flush();
    await this.handle?.close();
    this.handle = null;
    this.staged.set(this.name, { path: this.path, sha256: this.hash.digest("hex"), rewritten: this.rewritten });
  }

  private take(line: Buffer, newline: boolean): void {
    this.lineNumber += 1;
    const rewrite = this.rewrites.get(this.name) ?? null;
    let out = line;
    if (rewrite !== null && line.indexOf('"cwd"') >= 0) {
      const moved = rewriteTranscriptLine(line.toString("utf8"), rewrite, this.lineNumber);
      if (moved.rewritten > 0) out = Buffer.from(moved.line, "utf8");
      this.rewritten += moved.rewritten;
    }
    // A view into the reader's chunk is only valid now: copied when kept past this call.
    this.keep(out === line ? Buffer.from(line) : out);
    if (newline) this.keep(NEWLINE);
  }

  private keep(bytes: Buffer): void {
    this.hash.update(bytes);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0 || this.handle === null) return;
    const data = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    for (let at = 0; at < data.length; ) at += (await this.handle.write(data, at, data.length - at)).bytesWritten;
  }
}
