// The archive pass's memory on big transcripts (issue #21, break 7): the built `ctx archive run`, run as a user
// would, on a 110 MB real-shaped transcript and on a 2 GB sparse one (real JSONL lines at both ends, a hole of NUL
// bytes between: one enormous "line"), then `ctx archive restore` of each. Peak RSS is the child's VmHWM, read
// from /proc every 50 ms until it exits. Needs `pnpm build` first. `node bench/run.ts archive-memory`.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  createReadStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTranscript } from "./process-timing.ts";

const CLI = fileURLToPath(new URL("../dist/ctx.js", import.meta.url));
const SPARSE_BYTES = 2_000_000_000;
const AGED = new Date(Date.now() - 25 * 86_400_000);

interface Measured {
  exitCode: number | null;
  wallMs: number;
  peakRssMiB: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI and polls its VmHWM (the kernel's peak RSS) until it exits. */
function runMeasured(args: string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let peakKiB = 0;
    const poll = () => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (match?.[1] !== undefined) peakKiB = Math.max(peakKiB, Number(match[1]));
      } catch {
        // gone already: the last value read stands
      }
    };
    const timer = setInterval(poll, 50);
    child.on("error", reject);
    child.on("exit", (exitCode) => {
      clearInterval(timer);
      resolve({
        exitCode,
        wallMs: Math.round(performance.now() - start),
        peakRssMiB: Math.round(peakKiB / 1024),
        stdout,
        stderr,
      });
    });
    // The first sample as soon as the process is there; the exit handler keeps the last value read.
    poll();
  });
}

/** Real lines at the start and the end, a hole in between (so little disk): one multi-gigabyte NUL "line". */
function makeSparseTranscript(path: string, bytes: number): void {
  const line = (i: number) =>
    `${JSON.stringify({ type: "user", cwd: "/bench/repo", sessionId: "sparse", uuid: `u${i}`, message: { role: "user", content: `line ${i}` } })}\n`;
  const head = Buffer.from([0, 1, 2].map(line).join(""));
  const tail = Buffer.from([3, 4, 5].map(line).join(""));
  const fd = openSync(path, "w");
  writeSync(fd, head, 0, head.length, 0);
  writeSync(fd, tail, 0, tail.length, bytes - tail.length);
  closeSync(fd);
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function measureCase(name: string, make: (path: string) => void): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), `ctx-bench-archive-${name}-`));
  try {
    const folder = join(dir, "claude", "projects", "-bench-repo");
    mkdirSync(folder, { recursive: true });
    const transcript = join(folder, `${name}.jsonl`);
    make(transcript);
    utimesSync(transcript, AGED, AGED);
    const bytes = statSync(transcript).size;
    const before = await sha256Of(transcript);
    const env = {
      PATH: process.env.PATH,
      HOME: join(dir, "home"),
      CTX_HOME: join(dir, "ctx-home"),
      CLAUDE_CONFIG_DIR: join(dir, "claude"),
      CTX_HOOKS_DISABLED: "1",
      // No size skip: the point is the memory of archiving it.
      CTX_ARCHIVE__MAX_TRANSCRIPT_MEGABYTES: "0",
    };
    const run = await runMeasured(["archive", "run", "--json"], env);
    const report = JSON.parse(run.stdout || "{}") as { archived?: { bytes: number }[] };
    rmSync(transcript);
    const restore = await runMeasured(["archive", "restore", name, "--json"], env);
    const restoredEqual = restore.exitCode === 0 && (await sha256Of(transcript)) === before;
    return {
      transcriptBytes: bytes,
      run: {
        exitCode: run.exitCode,
        wallMs: run.wallMs,
        peakRssMiB: run.peakRssMiB,
        archivedBytes: report.archived?.[0]?.bytes ?? null,
        stderr: run.stderr.slice(0, 400),
      },
      restore: {
        exitCode: restore.exitCode,
        wallMs: restore.wallMs,
        peakRssMiB: restore.peakRssMiB,
        stderr: restore.stderr.slice(0, 400),
      },
      restoredBytesEqual: restoredEqual,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const only = process.env.CTX_BENCH_ARCHIVE_CASES?.split(",");
  const cases: [string, (path: string) => void][] = [
    ["real-110mb", (path) => renameSync(makeTranscript(join(path, ".."), 110, ".bench"), path)],
    ["sparse-2gb", (path) => makeSparseTranscript(path, SPARSE_BYTES)],
  ];
  const results: Record<string, unknown> = {};
  for (const [name, make] of cases) {
    if (only !== undefined && !only.includes(name)) continue;
    results[name] = await measureCase(name, make);
  }
  return results;
}
