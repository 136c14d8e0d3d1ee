// Reading a session bundle (`ctx import`) and checking it whole: its size, the archive container's checksums (the
// payload's and each file's: one byte changed anywhere is refused), the manifest's shape, ids, entry names and
// counts (core/transplant/bundle-manifest.ts), each file's size, and every transcript line's depth
// (core/transplant/json-depth.ts). Read as a stream (store/archive/archive-container-read.ts): memory does not grow
// with the bundle. The bytes go on to the caller's sink only on the second read, once the first found nothing wrong.
import { lstat } from "node:fs/promises";
import * as z from "zod/mini";
import {
  type BundleLimits,
  type BundleManifest,
  BundleManifestSchema,
  manifestProblem,
} from "../core/transplant/bundle-manifest.ts";
import { JsonDepthScanner } from "../core/transplant/json-depth.ts";
import { MAX_JSON_DEPTH } from "../core/transplant/transcript-cwd.ts";
import { CtxError, explainSystemError } from "../errors.ts";
import type { FileSink, StreamedFile } from "../store/archive/archive-container.ts";
import { readArchiveContainer } from "../store/archive/archive-container-read.ts";
import { LineSplitter } from "./line-splitter.ts";

/** A first `cwd` is looked for in lines up to this size (an envelope line; a huge tool result is passed over). */
const MAX_CWD_LINE_BYTES = 1 << 20;

export interface ReadBundle {
  manifest: BundleManifest;
  /** Each file as read, in the container's order (the manifest's sessions' files, in order). */
  files: StreamedFile[];
  /** Each file's first top-level `cwd` (by entry name), null when it records none. */
  firstCwds: Map<string, string | null>;
}

/** The refusal of a bundle: the whole of it, with what was wrong. */
export function refusedBundle(path: string, what: string): CtxError {
  return new CtxError("STATE_CORRUPT", `the bundle ${path} is refused: ${what}`, {
    hint: "nothing was imported; ask for the bundle again (`ctx export` on the machine it came from)",
  });
}

/**
 * Reads the bundle at `path` and checks it whole; each file's bytes go to `sink` as they are read (the caller
 * writes only to its own staging until this returns). Anything wrong is STATE_CORRUPT (refusedBundle).
 */
export async function readBundle(path: string, limits: BundleLimits, sink?: FileSink): Promise<ReadBundle> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") {
      throw new CtxError("NOT_FOUND", `no bundle at ${path}`, { hint: "name the file `ctx export --out` wrote" });
    }
    throw explainSystemError(error) ?? error;
  });
  if (!info.isFile()) throw refusedBundle(path, "it is not a regular file");
  if (info.size > limits.bundleBytes) {
    throw refusedBundle(path, `it is ${info.size} bytes, over the ${limits.bundleBytes} a bundle may be`);
  }
  const checks = new CheckingSink(limits, sink);
  let read: Awaited<ReturnType<typeof readArchiveContainer>>;
  try {
    read = await readArchiveContainer(path, checks);
  } catch (error) {
    if (error instanceof CtxError) throw error;
    if ((error as NodeJS.ErrnoException).syscall !== undefined) throw explainSystemError(error) ?? error;
    throw refusedBundle(path, error instanceof Error ? error.message : String(error));
  }
  const parsed = z.safeParse(BundleManifestSchema, read.meta);
  if (!parsed.success) throw refusedBundle(path, "its manifest is not a ctx session bundle's");
  const manifest = parsed.data;
  const problem = manifestProblem(manifest, limits);
  if (problem !== null) throw refusedBundle(path, problem);
  const listed = manifest.sessions.flatMap((session) => session.files);
  if (listed.length !== read.files.length) throw refusedBundle(path, "its file list does not match its files");
  for (const [i, file] of read.files.entries()) {
    const entry = listed[i];
    if (entry?.path !== file.name || entry.bytes !== file.bytes || entry.sha256 !== file.sha256) {
      throw refusedBundle(path, `${file.name} does not match its checksum`);
    }
  }
  return { manifest, files: read.files, firstCwds: checks.firstCwds };
}

/** Counts and scans each file's bytes as they pass (sizes, depth, first cwd), then hands them to the caller's sink. */
class CheckingSink implements FileSink {
  readonly firstCwds = new Map<string, string | null>();
  private name = "";
  private bytes = 0;
  private total = 0;
  private depth = new JsonDepthScanner();
  private lines = new LineSplitter();
  private cwd: string | null = null;

  private readonly limits: BundleLimits;
  private readonly next: FileSink | undefined;

  constructor(limits: BundleLimits, next: FileSink | undefined) {
    this.limits = limits;
    this.next = next;
  }

  async open(name: string): Promise<void> {
    if (this.firstCwds.has(name)) throw new Error(`entry ${JSON.stringify(name)} is in it twice`);
    if (this.firstCwds.size >= this.limits.entries) {
      throw new Error(`it holds more than the ${this.limits.entries} files a bundle may hold`);
    }
    this.name = name;
    this.bytes = 0;
    this.depth = new JsonDepthScanner();
    this.lines = new LineSplitter(MAX_CWD_LINE_BYTES);
    this.cwd = null;
    await this.next?.open(name);
  }

  async write(chunk: Uint8Array): Promise<void> {
    this.bytes += chunk.length;
    this.total += chunk.length;
    if (this.bytes > this.limits.entryBytes) {
      throw new Error(`entry ${this.name} is over the ${this.limits.entryBytes} bytes one file may be`);
    }
    if (this.total > this.limits.totalBytes) {
      throw new Error(`its files are over the ${this.limits.totalBytes} bytes a bundle may hold`);
    }
    this.depth.push(chunk);
    if (this.depth.tooDeepLine !== null) {
      throw new Error(
        `line ${this.depth.tooDeepLine} of ${this.name} nests more than ${MAX_JSON_DEPTH} deep, which Claude Code never writes`,
      );
    }
    if (this.cwd === null) this.lines.push(chunk, (line) => this.lookForCwd(line));
    await this.next?.write(chunk);
  }

  async close(): Promise<void> {
    if (this.cwd === null) this.lines.end((line) => this.lookForCwd(line));
    this.firstCwds.set(this.name, this.cwd);
    await this.next?.close();
  }

  private lookForCwd(line: Buffer): void {
    if (this.cwd !== null || line.indexOf('"cwd"') < 0) return;
    try {
      const cwd = (JSON.parse(line.toString("utf8")) as { cwd?: unknown }).cwd;
      if (typeof cwd === "string" && cwd !== "") this.cwd = cwd;
    } catch {
      // a line that does not parse records no cwd (Claude Code skips it too)
    }
  }
}
