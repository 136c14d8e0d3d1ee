// The built `ctx serve`, started by the MCP SDK's own client as Claude Code starts it, watches Claude Code's
// projects/ folder by folder (issue 36: at 100,000 sessions a watch per file would exhaust max_user_watches): its
// inotify watches, counted from /proc, stay within the folders and below the files; and transcripts written into
// folders made after it started (a new project, a new session's subagents/, a subagents/ added to an existing
// session) all reach the index through its background `ctx index` child.
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE, layOutClaudeDir, SPOTTER_PROJECT, VIEWER_PROJECT } from "../helpers/claude-projects.ts";
import { inotifyWatchCount } from "../helpers/inotify-watches.ts";
import { assertBuilt, CTX_BIN } from "./ctx-process.ts";

let base: string;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  rmSync(base, { recursive: true, force: true });
});

function count(dir: string): { folders: number; files: number } {
  const total = { folders: 1, files: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) total.files++;
    if (!entry.isDirectory()) continue;
    const below = count(join(dir, entry.name));
    total.folders += below.folders;
    total.files += below.files;
  }
  return total;
}

function notIndexed(dbPath: string, paths: string[]): string[] {
  if (!existsSync(dbPath)) return paths;
  const db = new DatabaseSync(dbPath, { readOnly: true, timeout: 5_000 });
  try {
    const known = db.prepare("SELECT 1 AS found FROM files WHERE path = ?");
    return paths.filter((path) => known.get(path) === undefined);
  } catch {
    return paths; // the first sync is still creating the tables
  } finally {
    db.close();
  }
}

async function until(what: string, check: () => boolean, withinMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; server log:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const AGENT = join(FIXTURE.longSubagents, "agent-a2898e3.jsonl");

describe.runIf(process.platform === "linux")("ctx serve watching projects/ by folder (built binary)", () => {
  it("holds a watch per folder, not per file, and indexes transcripts in folders made after it started", async () => {
    assertBuilt();
    base = mkdtempSync(join(tmpdir(), "ctx-serve-folders-"));
    const claudeDir = layOutClaudeDir(base);
    const projects = join(claudeDir, "projects");
    const spotter = join(projects, SPOTTER_PROJECT);
    // A session folder holding only spilled tool output: a folder with no transcript to watch.
    mkdirSync(join(spotter, "short", "tool-results"), { recursive: true });
    const ctxHome = join(base, "ctx-home");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CTX_BIN, "serve"],
      env: {
        PATH: process.env.PATH ?? "",
        HOME: join(base, "home"),
        CTX_HOME: ctxHome,
        CLAUDE_CONFIG_DIR: claudeDir,
        CLAUDE_PROJECT_DIR: base,
        CTX_INDEX__QUIET_MS: "300",
        CTX_LOG_LEVEL: "debug",
      },
      cwd: base,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid as number;
    const log = () => stderr;
    await until("the watcher to be ready", () => /watching \d+ folders/.test(stderr), 10_000, log);

    const before = count(projects);
    const watches = inotifyWatchCount(pid);
    // projects/, the two project folders, the long session's folder and its subagents/.
    expect(watches, stderr).toBe(5);
    expect(watches).toBeLessThan(before.folders);
    expect(watches).toBeLessThan(before.files);
    // The start-up sync indexes what was there.
    const dbPath = join(ctxHome, "index.db");
    const initial = join(spotter, "short.jsonl");
    await until("the start-up sync", () => notIndexed(dbPath, [initial]).length === 0, 60_000, log);

    const written: string[] = [];
    const place = (from: string, to: string) => {
      cpSync(from, to);
      written.push(to);
    };
    // A project folder made after start.
    const fresh = join(projects, "-home-dev-fresh");
    mkdirSync(fresh);
    place(FIXTURE.short, join(fresh, "7e1c3a52-0b44-4d1e-9f0e-1a2b3c4d5e6f.jsonl"));
    // A new session whose subagents/ comes with it.
    const sessionId = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
    place(FIXTURE.subagent, join(projects, VIEWER_PROJECT, `${sessionId}.jsonl`));
    mkdirSync(join(projects, VIEWER_PROJECT, sessionId, "subagents"), { recursive: true });
    place(AGENT, join(projects, VIEWER_PROJECT, sessionId, "subagents", "agent-a2898e3.jsonl"));
    // A subagents/ added to a session folder that was there, unwatched, at start; then its transcript moves on.
    mkdirSync(join(spotter, "short", "subagents"));
    place(AGENT, join(spotter, "short", "subagents", "agent-a2898e3.jsonl"));
    appendFileSync(join(spotter, "short.jsonl"), readFileSync(FIXTURE.short, "utf8").split("\n")[0] ?? "");

    // Seconds on a quiet machine; the bounds are for a 2-core machine under the whole suite's load (the test's own
    // 30 s timeout ran out there).
    await until("every new transcript in the index", () => notIndexed(dbPath, written).length === 0, 60_000, log);
    const after = count(projects);
    const watchesAfter = inotifyWatchCount(pid);
    // + the new project, the new session and its subagents/, short/ and its subagents/.
    expect(watchesAfter, stderr).toBe(watches + 5);
    expect(watchesAfter).toBeLessThan(after.folders);
    expect(stderr).toContain("background index --quiet --json");

    const stats = await client.callTool({ name: "ctx_index", arguments: { op: "stats" } });
    expect(stats.isError, JSON.stringify(stats)).toBeFalsy();
    // The seven sessions laid out, and the two new ones (the subagents belong to their sessions).
    const report = stats.structuredContent as { stats: { sessions: number; byProject: Array<{ project: string }> } };
    expect(report.stats.sessions).toBe(9);
    expect(report.stats.byProject.map((row) => row.project)).toContain("-home-dev-fresh");
  }, 180_000);
});
