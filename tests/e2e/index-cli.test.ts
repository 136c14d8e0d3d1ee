// The built binary's session index commands over a fake ~/.claude holding the fixture transcripts.
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layOutClaudeDir } from "../helpers/claude-projects.ts";
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
