// `ctx search` as a person and a script run it: the built binary over a sample ~/.claude, catching the index
// up on its own before the first search.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { CTX_BIN, runCtx } from "./ctx-process.ts";

const root = mkdtempSync(join(tmpdir(), "ctx-search-e2e-"));
const claudeDir = join(root, "claude");
writeSampleClaudeDir(claudeDir);
const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir };
const PHOENIX = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";

describe("ctx search (built binary)", () => {
  it("indexes on first use and prints the JSON scripts read", async () => {
    const run = await runCtx(["search", "start the phoenix server in the background", "--json", "--limit", "3"], {
      cwd: root,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout) as { results: Record<string, unknown>[]; indexedSessions: number };
    expect(output.indexedSessions).toBe(7);
    expect(output.results.length).toBeLessThanOrEqual(3);
    const [best] = output.results;
    expect(best).toMatchObject({
      sessionId: PHOENIX,
      project: "-home-marco-projects-spotter",
      cwd: "/home/marco/projects/spotter",
      topic: "start phoenix in background",
      forkCommand: `cd /home/marco/projects/spotter && claude --resume ${PHOENIX} --fork-session`,
    });
    for (const key of ["score", "components", "updatedAt", "preview"]) expect(best).toHaveProperty(key);
  });

  it("shows people a ranked list with fork commands, and says so when nothing matches", async () => {
    const found = await runCtx(["search", "phoenix", "server", "--project", "spotter"], { cwd: root, env });
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain('Sessions matching "phoenix server"');
    expect(found.stdout).toContain(
      `fork: cd /home/marco/projects/spotter && claude --resume ${PHOENIX} --fork-session`,
    );
    expect(found.stdout).not.toContain("/path/to/Demo");

    const none = await runCtx(["search", "zyxwvut quuxplorb"], { cwd: root, env });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("No past session matches");
    // Scripts get the same exit status as people (#11 break 14: --json used to exit 0 on no match).
    const noneJson = await runCtx(["search", "zyxwvut quuxplorb", "--json"], { cwd: root, env });
    expect(noneJson.code).toBe(1);
    expect(JSON.parse(noneJson.stdout)).toMatchObject({ results: [] });
  });

  it("off a terminal: strong matches, then a weak-matches line and the weak ones, plain text", async () => {
    const mixed = await runCtx(["search", "credo dialyzer mix_audit igniter"], { cwd: root, env });
    expect(mixed.code, mixed.stderr).toBe(0);
    expect(mixed.stdout).not.toContain("\u001b[");
    const line = mixed.stdout.indexOf("── weak matches (below 25% relevance):");
    expect(line).toBeGreaterThan(mixed.stdout.indexOf("1. /handgemacht:create-beads"));
    const weakPercents = [...mixed.stdout.slice(line).matchAll(/(\d+)% match/g)].map((m) => Number(m[1]));
    const strongPercents = [...mixed.stdout.slice(0, line).matchAll(/(\d+)% match/g)].map((m) => Number(m[1]));
    expect(weakPercents.length).toBeGreaterThan(0);
    for (const percent of weakPercents) expect(percent).toBeLessThan(25);
    for (const percent of strongPercents) expect(percent).toBeGreaterThanOrEqual(25);

    const strongOnly = await runCtx(["search", "credo dialyzer mix_audit igniter", "--limit", "1"], { cwd: root, env });
    expect(strongOnly.stdout).not.toContain("weak matches");

    // Only weak matches: still an answer (exit 0), said plainly above them.
    const weakOnly = await runCtx(["search", "kubernetes terraform helm phoenix"], { cwd: root, env });
    expect(weakOnly.code, weakOnly.stderr).toBe(0);
    expect(weakOnly.stdout).toContain('No session matches "kubernetes terraform helm phoenix" strongly');
    expect(weakOnly.stdout).toContain("1. start phoenix in background");

    const json = await runCtx(["search", "credo dialyzer mix_audit igniter", "--json"], { cwd: root, env });
    const report = JSON.parse(json.stdout) as {
      results: { weak: boolean; score: number; scorePercent: number; components: { relevance: number } }[];
      strongMatches: number;
      weakMatches: number;
    };
    expect(report.strongMatches).toBeGreaterThan(0);
    expect(report.weakMatches).toBe(report.results.filter((r) => r.weak).length);
    for (const r of report.results) {
      expect(r.score).toBe(r.components.relevance);
      expect(r.scorePercent).toBe((r.weak ? Math.floor : Math.round)(r.components.relevance * 100));
      expect(r.weak).toBe(r.components.relevance < 0.25);
    }
  });

  it.runIf(spawnSync("script", ["--version"]).status === 0)(
    "on a terminal with --no-pick: titles bold, weak matches faint; NO_COLOR turns that off",
    () => {
      const onTerminal = (extra: NodeJS.ProcessEnv) =>
        spawnSync(
          "script",
          ["-qec", `'${process.execPath}' '${CTX_BIN}' search credo dialyzer mix_audit igniter --no-pick`, "/dev/null"],
          {
            cwd: root,
            // A terminal that takes colour, whatever TERM the run inherited (CI's may be unset or "dumb").
            env: { ...process.env, CTX_LOG_LEVEL: "warn", TERM: "xterm-256color", ...env, ...extra },
            encoding: "utf8",
            timeout: 30_000,
          },
        );
      const styled = onTerminal({});
      expect(styled.status, styled.stderr).toBe(0);
      expect(styled.stdout).toContain("\u001b[1m1. /handgemacht:create-beads");
      const afterLine = styled.stdout.split("── weak matches (below 25% relevance):")[1] ?? "";
      expect(afterLine.trimStart().startsWith("\u001b[2m")).toBe(true);
      const plain = onTerminal({ NO_COLOR: "1" });
      expect(plain.stdout).toContain("── weak matches");
      expect(plain.stdout).not.toContain("\u001b[");
    },
  );

  it("rejects a bad limit or date with a usage error", async () => {
    const limit = await runCtx(["search", "x", "--limit", "0"], { cwd: root, env });
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain("--limit");
    const since = await runCtx(["search", "x", "--since", "soon"], { cwd: root, env });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain("7d");
    const marker = await runCtx(["search", "x", "--marker", "solution"], { cwd: root, env });
    expect(marker.code).toBe(2);
    expect(marker.stderr).toContain("working-solution, pattern, waiting");
  });

  it("--marker keeps the sessions a memory marker lifted, and each result names its markers", async () => {
    const run = await runCtx(["search", "tests pass fix", "--marker", "working-solution", "--json", "--limit", "10"], {
      cwd: root,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const { results } = JSON.parse(run.stdout) as { results: { markers: { type: string; chunkIndex: number }[] }[] };
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect(result.markers.map((m) => m.type)).toContain("WORKING_SOLUTION");
    const text = await runCtx(["search", "tests pass fix", "--marker", "working-solution"], { cwd: root, env });
    expect(text.stdout).toMatch(/% match · working solution/);
  });
});
