// The built `ctx serve` as Claude Code runs it, with the background indexer on: transcripts written under
// CLAUDE_CONFIG_DIR/projects are indexed by a `ctx index` child after the quiet period, then embedded by a
// `ctx embed` child (nomic provider, on a generated model of the real layout), and when the client closes
// stdin the server exits leaving no child behind.
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE as SAMPLES } from "../helpers/claude-projects.ts";
import { linkEmbedderPackages, missingEmbedderPackages } from "../helpers/embedder-packages.ts";
import { writeTinyEmbeddingModel } from "../helpers/tiny-embedding-model.ts";
import { assertBuilt, CTX_BIN } from "./ctx-process.ts";

const FIXTURE = SAMPLES.short;
let server: ChildProcess | undefined;

afterEach(() => {
  if (server?.exitCode === null) server.kill("SIGKILL");
});

/** Pids of live processes whose environment carries `marker` (our server and any child it started). */
function processesWithEnv(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(marker)) pids.push(Number(entry));
    } catch {
      // gone or not ours
    }
  }
  return pids;
}

function counts(dbPath: string): { sessions: number; vectors: number } {
  if (!existsSync(dbPath)) return { sessions: 0, vectors: 0 };
  const db = new DatabaseSync(dbPath, { readOnly: true, timeout: 5_000 });
  try {
    const sessions = (db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n;
    const hasVectors = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunk_vectors'").get() !== undefined;
    const vectors = hasVectors ? (db.prepare("SELECT count(*) AS n FROM chunk_vectors").get() as { n: number }).n : 0;
    return { sessions, vectors };
  } catch {
    return { sessions: 0, vectors: 0 }; // mid-creation
  } finally {
    db.close();
  }
}

async function until<T>(read: () => T, done: (value: T) => boolean, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The real transformers.js and onnxruntime, from the test cache, given to the ctx process through its CTX_HOME.
const noPackages = missingEmbedderPackages() !== null;

describe.skipIf(process.platform !== "linux" || noPackages)("ctx serve background indexing (built binary)", () => {
  it("indexes and embeds new transcripts after the quiet period, and leaves no process on exit", async () => {
    assertBuilt();
    const base = mkdtempSync(join(tmpdir(), "ctx-serve-watch-"));
    const claudeDir = join(base, "claude");
    const project = join(claudeDir, "projects", "-home-dev-app");
    mkdirSync(project, { recursive: true });
    const ctxHome = join(base, "ctx-home");
    writeTinyEmbeddingModel(join(ctxHome, "models"), "nomic-ai/nomic-embed-text-v1.5", { dimensions: 8 });
    linkEmbedderPackages(ctxHome);
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: join(base, "home"),
      CTX_HOME: ctxHome,
      CLAUDE_CONFIG_DIR: claudeDir,
      CLAUDE_PROJECT_DIR: base,
      CTX_INDEX__QUIET_MS: "300",
      CTX_EMBEDDER__PROVIDER: "nomic",
      CTX_LOG_LEVEL: "debug",
    };
    server = spawn(process.execPath, [CTX_BIN, "serve"], { cwd: base, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    server.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    server.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    await until(
      () => stderr,
      (text) => text.includes("serving project"),
      10_000,
    );
    await until(
      () => stderr,
      (text) => text.includes("watching "),
      10_000,
    ); // the watcher's folders are in place

    cpSync(FIXTURE, join(project, "11111111-2222-3333-4444-555555555555.jsonl"));
    const dbPath = join(ctxHome, "index.db");
    const filled = await until(
      () => counts(dbPath),
      (c) => c.sessions === 1 && c.vectors > 0,
      60_000, // a few seconds on a quiet machine; a 2-core CI machine under the whole suite's load took over 20
    );
    expect(filled.sessions, stderr).toBe(1);
    expect(filled.vectors, stderr).toBeGreaterThan(0);
    expect(stderr).toContain("background index --quiet --json");
    expect(stdout).toBe(""); // no JSON-RPC request was sent: nothing may appear on stdout

    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.stdin?.end();
    await exited;
    expect(processesWithEnv(`CTX_HOME=${ctxHome}`)).toEqual([]);
  }, 120_000);
});
