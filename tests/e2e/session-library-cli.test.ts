// `ctx session star|tag|note|list` and `ctx search --tag --starred` as a person and a script run them: the built
// binary over a sample ~/.claude. The library is ctx's own state: a reindex, a deleted index.db and a damaged library
// file each keep every saved annotation.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { runCtx } from "./ctx-process.ts";

const root = mkdtempSync(join(tmpdir(), "ctx-library-e2e-"));
const claudeDir = join(root, "claude");
writeSampleClaudeDir(claudeDir);
const ctxHome = join(root, "ctx-home");
const env = { HOME: join(root, "home"), CTX_HOME: ctxHome, CLAUDE_CONFIG_DIR: claudeDir };
const PHOENIX = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
const ctx = (...args: string[]) => runCtx(args, { cwd: root, env });
const searchIds = async (...args: string[]) => {
  const run = await ctx("search", ...args, "--json", "--no-refresh");
  return (JSON.parse(run.stdout) as { results: Array<{ sessionId: string }> }).results.map((r) => r.sessionId);
};

describe("the session library (built binary)", () => {
  it("star, tag and note a session by its id prefix; search filters by them and shows them", async () => {
    expect((await ctx("index", "--quiet")).code).toBe(0);
    const star = await ctx("session", "star", "d6e0bada");
    expect(star.code, star.stderr).toBe(0);
    expect(star.stdout).toContain(`starred ${PHOENIX}`);
    const tag = await ctx("session", "tag", "d6e0", "Deploy", "ops", "--json");
    expect(tag.code, tag.stderr).toBe(0);
    expect(JSON.parse(tag.stdout)).toMatchObject({ sessionId: PHOENIX, annotation: { labels: ["deploy", "ops"] } });
    const note = await ctx("session", "note", PHOENIX, "elixir --detached was the fix; key AKIAIOSFODNN7EXAMPLE");
    expect(note.code, note.stderr).toBe(0);
    expect(note.stdout).toContain("secret(s) redacted");

    const run = await ctx("search", "phoenix server", "--tag", "deploy", "--starred", "--json", "--no-refresh");
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { results: Array<Record<string, unknown>> };
    expect(report.results.map((r) => r.sessionId)).toEqual([PHOENIX]);
    expect(report.results[0]).toMatchObject({ starred: true, labels: ["deploy", "ops"] });
    expect(String(report.results[0]?.note)).toMatch(/^elixir --detached was the fix; key /);
    expect(String(report.results[0]?.note)).not.toContain("AKIAIOSFODNN7EXAMPLE");
    // The note's words are the session's words.
    expect(await searchIds("detached")).toContain(PHOENIX);
    expect(await searchIds("phoenix", "--tag", "nope")).toEqual([]);

    const text = await ctx("search", "phoenix server", "--tag", "ops", "--no-refresh", "--no-pick");
    expect(text.stdout).toContain("yours: ★ starred · tags: deploy, ops · note: elixir --detached");
    const list = await ctx("session", "list", "--starred", "--json");
    expect(JSON.parse(list.stdout)).toMatchObject({ sessions: [{ sessionId: PHOENIX, starred: true, indexed: true }] });
    const listed = await ctx("session", "list", "--tag", "ops");
    expect(listed.stdout).toContain(`${PHOENIX}  ★ · tags: deploy, ops`);
    const file = join(ctxHome, "library", "annotations.ctx");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("concurrent writers (separate processes) lose no change", async () => {
    const tags = Array.from({ length: 6 }, (_, i) => `parallel-${i}`);
    const runs = await Promise.all(tags.map((tag) => ctx("session", "tag", PHOENIX, tag, "--json")));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const listed = JSON.parse((await ctx("session", "list", "--json")).stdout) as {
      sessions: Array<{ labels: string[] }>;
    };
    expect(listed.sessions[0]?.labels).toEqual(expect.arrayContaining(["deploy", "ops", ...tags]));
    expect(await searchIds("phoenix", "--tag", "parallel-5", "--tag", "parallel-0")).toEqual([PHOENIX]);
    const untag = await ctx("session", "untag", PHOENIX, ...tags);
    expect(untag.code, untag.stderr).toBe(0);
  });

  it("ctx reindex and a deleted index.db keep every annotation", async () => {
    expect((await ctx("reindex", "--quiet")).code).toBe(0);
    expect(await searchIds("phoenix", "--tag", "deploy", "--starred")).toEqual([PHOENIX]);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(join(ctxHome, `index.db${suffix}`), { force: true });
    expect((await ctx("index", "--quiet")).code).toBe(0);
    expect(await searchIds("phoenix", "--tag", "deploy", "--starred")).toEqual([PHOENIX]);
    expect(await searchIds("detached")).toContain(PHOENIX);
  });

  // One argument is at most 128 KiB on Linux (MAX_ARG_STRLEN): 100 KB is as large a note as a shell can pass; the
  // 1 MB one is refused by the rules (core/library) and the MCP tool's schema, tested there.
  it("refuses an unknown id, a hostile tag and a 100 KB note with one clear line, writing nothing", async () => {
    const file = join(ctxHome, "library", "annotations.ctx");
    const before = readFileSync(file);
    const unknown = await ctx("session", "star", "ffffffff");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no indexed session has an id starting with "ffffffff"');
    const hostile = await ctx("session", "tag", PHOENIX, "\u001b]0;owned\u0007");
    expect(hostile.code).not.toBe(0);
    expect(hostile.stderr).toContain("control character");
    expect(hostile.stderr).not.toContain("\u001b");
    const huge = await ctx("session", "note", PHOENIX, "n".repeat(100_000));
    expect(huge.code).not.toBe(0);
    expect(huge.stderr).toContain("a note is at most 4096 bytes");
    expect(huge.stderr.length).toBeLessThan(400);
    const both = await ctx("session", "note", PHOENIX, "text", "--clear");
    expect(both.stderr).toContain("not both");
    expect(readFileSync(file)).toEqual(before);
  });

  it("a damaged library file is set aside with a clear error; the earlier annotations come back", async () => {
    const dir = join(ctxHome, "library");
    const file = join(dir, "annotations.ctx");
    truncateSync(file, Math.floor(statSync(file).size / 2));
    const damaged = await ctx("session", "tag", PHOENIX, "later");
    expect(damaged.code).not.toBe(0);
    expect(damaged.stderr).toMatch(/session library was damaged .*restored 1 annotated session\(s\) from its backup/);
    expect(damaged.stderr).toContain("run the command again");
    expect(readdirSync(dir).some((name) => name.startsWith("annotations.ctx.corrupt-"))).toBe(true);
    const list = JSON.parse((await ctx("session", "list", "--json")).stdout) as {
      sessions: Array<{ labels: string[] }>;
    };
    expect(list.sessions[0]?.labels).toEqual(["deploy", "ops"]);
    const again = await ctx("session", "tag", PHOENIX, "later");
    expect(again.code, again.stderr).toBe(0);
    expect(await searchIds("phoenix", "--tag", "later")).toEqual([PHOENIX]);
  });
});
