// `ctx search` as a person and a script run it: the built binary over a sample ~/.claude, catching the index
// up on its own before the first search.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { runCtx } from "./ctx-process.ts";

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
      forkCommand: `cd '/home/marco/projects/spotter' && claude --resume ${PHOENIX} --fork-session`,
    });
    for (const key of ["score", "components", "updatedAt", "preview"]) expect(best).toHaveProperty(key);
  });

  it("shows people a ranked list with fork commands, and says so when nothing matches", async () => {
    const found = await runCtx(["search", "phoenix", "server", "--project", "spotter"], { cwd: root, env });
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain('Sessions matching "phoenix server"');
    expect(found.stdout).toContain(
      `fork: cd '/home/marco/projects/spotter' && claude --resume ${PHOENIX} --fork-session`,
    );
    expect(found.stdout).not.toContain("/path/to/Demo");

    const none = await runCtx(["search", "zyxwvut quuxplorb"], { cwd: root, env });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("No past session matches");
  });

  it("rejects a bad limit or date with a usage error", async () => {
    const limit = await runCtx(["search", "x", "--limit", "0"], { cwd: root, env });
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain("--limit");
    const since = await runCtx(["search", "x", "--since", "soon"], { cwd: root, env });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain("7d");
  });
});
