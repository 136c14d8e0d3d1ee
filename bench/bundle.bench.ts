// `ctx export` and `ctx import` of ~100 MB of transcripts (issue #34: they stream, peak RSS ≤ 150 MB): the built
// binary, run as a user would, on one session of real shape (the long spotter fixture repeated to 96 MB, its cwd in a
// git checkout) with two subagent transcripts of 2 MB each, exported on one HOME and imported on a second whose
// clone of the same remote sits at another path. Peak RSS is the child's VmHWM (polled from /proc, as
// archive-memory.bench.ts does). Needs `pnpm build` first. `node bench/run.ts bundle`.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURE } from "../tests/helpers/claude-projects.ts";

const CLI = fileURLToPath(new URL("../dist/ctx.js", import.meta.url));
const SESSION = "6a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d";
const FIXTURE_CWD = "/home/USER/projects/spotter-worktrees/spotter-dov";

interface Measured {
  exitCode: number | null;
  wallMs: number;
  peakRssMiB: number;
  stdout: string;
  stderr: string;
}

function runMeasured(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
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
    poll();
  });
}

/** The fixture's lines, cwd moved into `cwd`, repeated to `megabytes` (whole lines). */
function writeTranscript(path: string, source: string, cwd: string, megabytes: number): void {
  const chunk = Buffer.from(readFileSync(source, "utf8").replaceAll(`"cwd":"${FIXTURE_CWD}`, `"cwd":"${cwd}`));
  const target = megabytes * 1024 * 1024;
  const fd = openSync(path, "w");
  for (let written = 0; written < target; ) {
    const room = target - written;
    const part = room >= chunk.length ? chunk : chunk.subarray(0, chunk.lastIndexOf(10, room - 1) + 1);
    if (part.length === 0) break;
    writeSync(fd, part);
    written += part.length;
  }
  closeSync(fd);
}

function checkout(dir: string, remote: string): string {
  mkdirSync(dir, { recursive: true });
  execFileSync("git", ["init", "-q", dir]);
  execFileSync("git", ["-C", dir, "remote", "add", "origin", remote]);
  return dir;
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-bundle-"));
  try {
    const repoA = checkout(join(dir, "a", "app"), "git@github.com:acme/app.git");
    const repoB = checkout(join(dir, "b", "clone"), "https://github.com/acme/app");
    const envOf = (name: string) => ({
      PATH: process.env.PATH,
      HOME: join(dir, name, "home"),
      CTX_HOME: join(dir, name, "ctx"),
      CLAUDE_CONFIG_DIR: "",
      CTX_HOOKS_DISABLED: "1",
    });
    const folder = join(dir, "a", "home", ".claude", "projects", repoA.replaceAll("/", "-"));
    mkdirSync(join(folder, SESSION, "subagents"), { recursive: true });
    writeTranscript(join(folder, `${SESSION}.jsonl`), FIXTURE.long, repoA, 96);
    for (const agent of ["agent-a1", "agent-a2"]) {
      writeTranscript(join(folder, SESSION, "subagents", `${agent}.jsonl`), FIXTURE.long, repoA, 2);
    }
    const index = await runMeasured(["index", "--json"], envOf("a"), repoA);
    const bundle = join(dir, "session.ctxbundle");
    const exported = await runMeasured(["export", SESSION, "--out", bundle, "--json"], envOf("a"), repoA);
    const imported = await runMeasured(["import", bundle, "--json"], envOf("b"), repoB);
    const report = JSON.parse(imported.stdout || "{}") as {
      sessions?: Array<{ transcriptPath: string; rewrittenCwdFields: number }>;
    };
    const placed = report.sessions?.[0];
    return {
      transcriptBytes: 100 * 1024 * 1024,
      files: 3,
      indexExitCode: index.exitCode,
      export: {
        exitCode: exported.exitCode,
        wallMs: exported.wallMs,
        peakRssMiB: exported.peakRssMiB,
        bundleBytes: exported.exitCode === 0 ? statSync(bundle).size : null,
        stderr: exported.stderr.slice(0, 400),
      },
      import: {
        exitCode: imported.exitCode,
        wallMs: imported.wallMs,
        peakRssMiB: imported.peakRssMiB,
        placedBytes: placed === undefined ? null : statSync(placed.transcriptPath).size,
        rewrittenCwdFields: placed?.rewrittenCwdFields ?? null,
        stderr: imported.stderr.slice(0, 400),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
