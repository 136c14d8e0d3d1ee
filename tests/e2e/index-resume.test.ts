// A full `ctx index` killed mid-way (SIGKILL: no handler runs, as when the machine goes down) leaves a readable
// index, and the next run ingests only what is missing and ends where an uninterrupted run ends: the resumable
// index that 100,000 sessions depend on (issue 36). The real fixture transcripts plus a seeded synthetic corpus
// large enough to be caught half-way.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { writeSyntheticCorpus } from "../../bench/synthetic-transcripts.ts";
import { discoverTranscripts } from "../../src/search/sync/discover.ts";
import { layOutClaudeDir } from "../helpers/claude-projects.ts";
import { assertBuilt, CTX_BIN, runCtx } from "./ctx-process.ts";

const root = mkdtempSync(join(tmpdir(), "ctx-index-resume-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface IndexFigures {
  files: number;
  sessions: number;
  messages: number;
  chunks: number;
  integrity: string;
}

/** What the index holds, read by another process's connection (null while it has no tables yet). */
function figures(ctxHome: string): IndexFigures | null {
  const path = join(ctxHome, "index.db");
  if (!existsSync(path)) return null;
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const value = (sql: string) => Number((db.prepare(sql).get() as { n: number | null }).n ?? 0);
    return {
      files: value("SELECT count(*) AS n FROM files"),
      sessions: value("SELECT count(*) AS n FROM sessions"),
      messages: value("SELECT sum(message_count) AS n FROM sessions"),
      chunks: value("SELECT count(*) AS n FROM chunks"),
      integrity: String((db.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check),
    };
  } catch {
    return null; // not created yet
  } finally {
    db.close();
  }
}

/** Starts `ctx index` and SIGKILLs it once another connection sees its first files committed. */
async function killMidway(env: NodeJS.ProcessEnv): Promise<NodeJS.Signals | null> {
  assertBuilt();
  const child = spawn(process.execPath, [CTX_BIN, "index", "--quiet"], {
    env: { ...process.env, CTX_LOG_LEVEL: "warn", ...env },
    stdio: "ignore",
  });
  const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
  let ended = false;
  void closed.then(() => (ended = true));
  const ctxHome = env.CTX_HOME as string;
  while (!ended && (figures(ctxHome)?.files ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  child.kill("SIGKILL");
  return closed;
}

describe("a full ctx index killed mid-way", () => {
  const claudeDir = layOutClaudeDir(root);
  writeSyntheticCorpus(claudeDir, { sessions: 500, sizeFactor: 0.1, seed: 36 });
  const base = { HOME: join(root, "home"), CLAUDE_CONFIG_DIR: claudeDir };

  it("leaves a readable index, and the next run ingests only what is missing and ends with every session", async () => {
    const files = await discoverTranscripts(claudeDir);
    const sessions = new Set(files.map((file) => file.sessionId)).size;
    const killed = { ...base, CTX_HOME: join(root, "killed") };
    expect(await killMidway(killed)).toBe("SIGKILL");

    const atKill = figures(killed.CTX_HOME);
    expect(atKill?.integrity).toBe("ok");
    expect(atKill?.files).toBeGreaterThan(0);
    expect(atKill?.files).toBeLessThan(files.length);
    const stats = await runCtx(["stats", "--json"], { cwd: root, env: killed });
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ sessions: atKill?.sessions });

    const resumed = await runCtx(["index", "--json"], { cwd: root, env: killed, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      filesScanned: files.length,
      filesSkippedUnchanged: atKill?.files,
      filesIngested: files.length - (atKill?.files ?? 0),
      sessionsTotal: sessions,
      interrupted: false,
    });

    // The same index as one uninterrupted run's: nothing lost, nothing ingested twice.
    const whole = { ...base, CTX_HOME: join(root, "whole") };
    const once = await runCtx(["index", "--quiet"], { cwd: root, env: whole, timeoutMs: 120_000 });
    expect(once.code, once.stderr).toBe(0);
    expect(figures(killed.CTX_HOME)).toEqual(figures(whole.CTX_HOME));
    expect(figures(whole.CTX_HOME)).toMatchObject({ files: files.length, sessions });
  }, 240_000);
});
