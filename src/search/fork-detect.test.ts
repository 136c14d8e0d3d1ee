import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSampleClaudeDir } from "../../tests/helpers/sample-claude-dir.ts";
import { assistantText, userPrompt } from "../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../config/defaults.ts";
import type { TeamCandidatesRequest } from "../core/search/team-candidates.ts";
import { runForkDetect } from "./fork-detect.ts";

describe("runForkDetect catching the index up", () => {
  it("searches an index synced within the last minute as it is, and catches up an older one", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-fork-fresh-"));
    const claudeDir = join(base, "claude");
    const sessions = writeSampleClaudeDir(claudeDir);
    const env = { CLAUDE_CONFIG_DIR: claudeDir, CTX_HOME: join(base, "home") };
    const options = { config: defaultConfig(), env, projectRoot: "/x" };
    const first = await runForkDetect({ query: "phoenix server" }, { ...options, now: () => Date.now() });
    expect(first.refresh?.sessionsTotal).toBe(sessions.length);

    const ctx = { sessionId: "fresh-1", cwd: "/home/user/zebra" };
    const project = join(claudeDir, "projects", sessions[0]?.path.split("/").at(-2) ?? "");
    writeFileSync(
      join(project, "fresh-1.jsonl"),
      `${[userPrompt(ctx, "migrate the zebra stripes database"), assistantText(ctx, "a1", "Zebra stripes migrated.")].join("\n")}\n`,
    );
    const soon = await runForkDetect({ query: "zebra stripes" }, { ...options, now: () => Date.now() + 1_000 });
    expect(soon.refresh).toBeNull();
    expect(soon.candidates).toEqual([]);

    const later = await runForkDetect({ query: "zebra stripes" }, { ...options, now: () => Date.now() + 61_000 });
    expect(later.refresh?.filesIngested).toBe(1);
    expect(later.candidates[0]?.sessionId).toBe("fresh-1");
  });

  it("asks the team through the port the caller gave, and refuses a team search without one", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-fork-port-"));
    const claudeDir = join(base, "claude");
    writeSampleClaudeDir(claudeDir);
    const env = { CLAUDE_CONFIG_DIR: claudeDir, CTX_HOME: join(base, "home") };
    const config = defaultConfig();
    const joined = { ...config, team: { ...config.team, url: "postgresql://db.example/library", name: "web" } };
    const options = { config: joined, env, projectRoot: "/x", now: () => Date.now() };
    await expect(runForkDetect({ query: "phoenix server", scope: "all" }, options)).rejects.toMatchObject({
      code: "USAGE",
    });
    const asked: TeamCandidatesRequest[] = [];
    const result = await runForkDetect(
      { query: "phoenix server", scope: "all", since: "2000-01-01" },
      {
        ...options,
        teamCandidates: async (request) => {
          asked.push(request);
          return { candidates: null, notice: "team results left out: a test said so" };
        },
      },
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]?.filters.since).toBe(Date.parse("2000-01-01"));
    expect(asked[0]?.query).toContain("phoenix");
    expect(result.notices).toEqual(["team results left out: a test said so"]);

    // A port that says when the server has the statement (the local search goes on meanwhile), then answers late.
    const told = await runForkDetect(
      { query: "phoenix server", scope: "all" },
      {
        ...options,
        teamCandidates: async (request) => {
          expect(request.onAsked).toBeTypeOf("function");
          request.onAsked?.();
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { candidates: null, notice: "team results left out: late" };
        },
      },
    );
    expect(told.candidates.length).toBeGreaterThan(0);
    expect(told.candidates.map((c) => c.sessionId)).toEqual(result.candidates.map((c) => c.sessionId));
    expect(told.notices).toEqual(["team results left out: late"]);

    // A window that widens asks the team again without it, unless the first fetch failed (not waited for twice).
    asked.length = 0;
    const widened = await runForkDetect(
      { query: "phoenix server since 1 January 2090", scope: "all" },
      {
        ...options,
        teamCandidates: async (request) => {
          asked.push(request);
          return { candidates: null, notice: "team results left out: a test said so" };
        },
      },
    );
    expect(widened.widened).toBe("empty");
    expect(asked).toHaveLength(1);
    expect(widened.notices).toEqual(["team results left out: a test said so"]);
  });
});
