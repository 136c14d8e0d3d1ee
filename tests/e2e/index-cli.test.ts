// The built binary's session index commands over a fake ~/.claude holding the fixture transcripts.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listTree } from "../adversarial/harness.ts";
import { FIXTURE_CLAUDE_DIR, layOutClaudeDir } from "../helpers/claude-projects.ts";
import { runCtx } from "./ctx-process.ts";

const root = mkdtempSync(join(tmpdir(), "ctx-index-e2e-"));
const claudeDir = layOutClaudeDir(root);
const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: "" };

describe("ctx index / stats / reindex (built binary)", () => {
  it("indexes, reports, skips what is unchanged, and rebuilds", async () => {
    const first = await runCtx(["index", "--claude-dir", claudeDir, "--json"], { cwd: root, env });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ sessionsTotal: 7, filesScanned: 8, filesIngested: 8 });
    expect(statSync(join(root, "ctx-home", "index.db")).mode & 0o777).toBe(0o600);
    // Every folder ctx's home holds is 0700 and every file 0600, Node's compile cache in it included (Node makes
    // its own folder there with the process's umask).
    const loose = listTree(join(root, "ctx-home")).filter((line) => !/^(d 0700|f 0600) /.test(line));
    expect(loose).toEqual([]);

    const again = await runCtx(["index", "--claude-dir", claudeDir, "--json"], { cwd: root, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ filesIngested: 0, filesSkippedUnchanged: 8 });

    const stats = await runCtx(["stats", "--json"], { cwd: root, env });
    const report = JSON.parse(stats.stdout);
    expect(report).toMatchObject({ exists: true, sessions: 7, projects: 2, vectors: 0 });
    expect(report.chunks).toBeGreaterThan(10);
    expect(report.bytes).toBeGreaterThan(0);

    const rebuilt = await runCtx(["reindex", "--claude-dir", claudeDir, "--json"], { cwd: root, env });
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ sessionsTotal: 7, filesIngested: 8 });
    const after = JSON.parse((await runCtx(["stats", "--json"], { cwd: root, env })).stdout);
    expect(after.chunks).toBe(report.chunks);
  });
});

describe("the sample sessions in tests/fixtures/claude", () => {
  it("are a Claude Code folder that ctx index reads as it is, and leaves as it was", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-index-samples-"));
    const localEnv = { HOME: join(base, "home"), CTX_HOME: join(base, "ctx-home"), CLAUDE_CONFIG_DIR: "" };
    // Every entry with its size and modification time: the index reads the folder, and writes nothing into it.
    const snapshot = () =>
      readdirSync(FIXTURE_CLAUDE_DIR, { recursive: true, encoding: "utf8" })
        .sort()
        .map((name) => {
          const stat = statSync(join(FIXTURE_CLAUDE_DIR, name));
          return `${name} ${stat.size} ${stat.mtimeMs}`;
        });
    const before = snapshot();
    const run = await runCtx(["index", "--claude-dir", FIXTURE_CLAUDE_DIR, "--json"], { cwd: base, env: localEnv });
    expect(run.code, run.stderr).toBe(0);
    // Seven sessions in three project folders, one subagent transcript (the compaction summariser's is skipped).
    expect(JSON.parse(run.stdout)).toMatchObject({ sessionsTotal: 7, filesScanned: 8, filesIngested: 8 });
    const stats = JSON.parse((await runCtx(["stats", "--json"], { cwd: base, env: localEnv })).stdout);
    expect(stats).toMatchObject({ sessions: 7, projects: 3 });
    expect(snapshot()).toEqual(before);
  });
});

describe("break 4: page-level damage to index.db", () => {
  it("stats --check notices a zeroed page and says to reindex; reindex moves the file aside and rebuilds", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-index-damage-"));
    const dir = layOutClaudeDir(base);
    const localEnv = { HOME: join(base, "home"), CTX_HOME: join(base, "ctx-home"), CLAUDE_CONFIG_DIR: "" };
    expect((await runCtx(["index", "--claude-dir", dir, "--quiet"], { cwd: base, env: localEnv })).code).toBe(0);
    const before = JSON.parse((await runCtx(["stats", "--check", "--json"], { cwd: base, env: localEnv })).stdout);
    expect(before.integrity).toBe("ok");

    const dbPath = join(base, "ctx-home", "index.db");
    const bytes = readFileSync(dbPath);
    const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
    const pages = Math.floor(bytes.length / pageSize);
    expect(pages).toBeGreaterThan(4);
    bytes.fill(0, Math.floor(pages / 2) * pageSize, (Math.floor(pages / 2) + 1) * pageSize);
    writeFileSync(dbPath, bytes);

    const stats = await runCtx(["stats", "--check", "--json"], { cwd: base, env: localEnv });
    expect(stats.code).toBe(1);
    expect(JSON.parse(stats.stdout).integrity).not.toBe("ok");
    expect(stats.stderr).toMatch(/^ctx: the session index .* is damaged/m);
    expect(stats.stderr).toMatch(/^hint: run `ctx reindex`/m);

    const rebuilt = await runCtx(["reindex", "--claude-dir", dir, "--json"], { cwd: base, env: localEnv });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(/damaged; kept it as .*index\.db\.damaged-/);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ sessionsTotal: 7, filesIngested: 8 });
    const after = JSON.parse((await runCtx(["stats", "--check", "--json"], { cwd: base, env: localEnv })).stdout);
    expect(after).toMatchObject({ integrity: "ok", chunks: before.chunks, sessions: before.sessions });
    expect(readdirSync(join(base, "ctx-home")).some((name) => name.startsWith("index.db.damaged-"))).toBe(true);
  });
});
