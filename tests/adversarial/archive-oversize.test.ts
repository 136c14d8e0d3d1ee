// Issue #21, break 7: the archive pass read each transcript whole (a 1.9 GB sparse one cost 7.9 GB of memory) and
// SessionStart starts it detached. Now a transcript over archive.maxTranscriptMegabytes is skipped with a line
// naming it, and a FIFO or a link named like a transcript is passed over without blocking or being followed; in
// each case nothing outside ctx's own folder changes. (The memory itself is measured by bench/archive-memory.)
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  chownTree,
  listTree,
  makeWorld,
  RUNNERS,
  runCtxIn,
  treeChanges,
  UNPRIVILEGED_ID,
  type World,
} from "./harness.ts";

const AGED = new Date(Date.now() - 25 * 86_400_000);
const line = (session: string, i: number) =>
  `${JSON.stringify({ type: "user", cwd: "/work/repo", sessionId: session, uuid: `u${i}`, message: { content: `m${i}` } })}\n`;

interface RunReport {
  archived: { sessionId: string; files: number }[];
  skipped: { sessionId: string; path: string; bytes: number }[];
  failed: unknown[];
}

describe.each(RUNNERS)("the archive pass as the %s user", (runner) => {
  let world: World;
  let project: string;
  beforeEach(() => {
    world = makeWorld(runner, "archive");
    project = join(world.claudeDir, "projects", "-work-repo");
    mkdirSync(project, { recursive: true });
  });
  afterEach(() => world.cleanup());

  /** A transcript aged into the archive's window. */
  const transcript = (name: string, body: string) => {
    const path = join(project, name);
    writeFileSync(path, body);
    utimesSync(path, AGED, AGED);
    return path;
  };
  const own = () => {
    if (runner === "unprivileged") chownTree(world.base, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
  };
  const outsideCtx = () => listTree(world.base, ["home/.ctx"]);
  const archivedFiles = () => readdirSync(join(world.ctxHome, "archive")).filter((name) => name.endsWith(".ctx"));

  it("break 7: a transcript over archive.maxTranscriptMegabytes is skipped with a line naming it and its size", async () => {
    const big = transcript("big-1.jsonl", line("big-1", 0).padEnd(1_200_000, " ").concat("\n"));
    transcript("small-1.jsonl", line("small-1", 0));
    own();
    const before = outsideCtx();
    const result = await runCtxIn(world, ["archive", "run", "--json"], {
      env: { CTX_ARCHIVE__MAX_TRANSCRIPT_MEGABYTES: "1" },
    });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as RunReport;
    expect(report.archived.map((a) => a.sessionId)).toEqual(["small-1"]);
    expect(report.skipped).toEqual([expect.objectContaining({ sessionId: "big-1", path: big, bytes: 1_200_001 })]);
    expect(result.stderr).toMatch(/archive: skipped .*big-1\.jsonl \(1\.1 MiB\), over archive\.maxTranscriptMegabytes/);
    expect(archivedFiles()).toEqual(["small-1.ctx"]);
    // `ctx archive` shows it too, from the last pass.
    const status = await runCtxIn(world, ["archive"]);
    expect(status.stdout).toContain("UNREDACTED");
    expect(status.stdout).toMatch(/skipped big-1 \(1\.1 MiB, over archive\.maxTranscriptMegabytes\)/);
    expect(treeChanges(before, outsideCtx())).toEqual([]);
  });

  it("break 7: a FIFO named like a transcript (and one in a session folder) does not block the pass", async () => {
    execFileSync("mkfifo", [join(project, "x.jsonl")]);
    transcript("real-1.jsonl", line("real-1", 0));
    mkdirSync(join(project, "real-1", "subagents"), { recursive: true });
    execFileSync("mkfifo", [join(project, "real-1", "subagents", "agent-a.jsonl")]);
    writeFileSync(join(project, "real-1", "subagents", "agent-b.jsonl"), line("real-1", 1));
    own();
    const before = outsideCtx();
    const started = Date.now();
    const result = await runCtxIn(world, ["archive", "run", "--json"], { timeoutMs: 15_000 });
    expect(result.signal).toBeNull();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as RunReport;
    // The FIFO transcript is not a transcript; the FIFO subagent is not a file of the session.
    expect(report.archived).toEqual([expect.objectContaining({ sessionId: "real-1", files: 2 })]);
    expect(report.failed).toEqual([]);
    expect(archivedFiles()).toEqual(["real-1.ctx"]);
    expect(treeChanges(before, outsideCtx())).toEqual([]);
  });

  it("break 7: a .jsonl link (or a session folder link) pointing outside the projects folder is not followed", async () => {
    const outside = join(world.base, "outside");
    mkdirSync(join(outside, "subagents"), { recursive: true });
    const secret = join(outside, "secret.jsonl");
    writeFileSync(secret, line("SECRET-OUTSIDE", 0));
    writeFileSync(join(outside, "subagents", "agent-x.jsonl"), line("SECRET-OUTSIDE", 1));
    utimesSync(secret, AGED, AGED);
    symlinkSync(secret, join(project, "linked-1.jsonl"));
    transcript("real-2.jsonl", line("real-2", 0));
    symlinkSync(outside, join(project, "real-2"));
    own();
    const before = outsideCtx();
    const result = await runCtxIn(world, ["archive", "run", "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as RunReport;
    expect(report.archived).toEqual([expect.objectContaining({ sessionId: "real-2", files: 1 })]);
    expect(archivedFiles()).toEqual(["real-2.ctx"]);
    const meta = JSON.parse(readFileSync(join(world.ctxHome, "archive", "real-2.meta.json"), "utf8")) as {
      files: { path: string }[];
    };
    expect(meta.files.map((f) => f.path)).toEqual(["projects/-work-repo/real-2.jsonl"]);
    expect(treeChanges(before, outsideCtx())).toEqual([]);
  });
});
