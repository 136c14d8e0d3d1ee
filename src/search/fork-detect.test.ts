import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSampleClaudeDir } from "../../tests/helpers/sample-claude-dir.ts";
import { teamChunkRow, teamSessionRow } from "../../tests/helpers/team-rows.ts";
import { assistantText, userPrompt } from "../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../config/defaults.ts";
import { type TeamCandidatesRequest, unweighedQuery } from "../core/search/team-candidates.ts";
import { runForkDetect } from "./fork-detect.ts";
import { openReader } from "./fork-detect-index.ts";
import { resolveIndexPath } from "./paths.ts";

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
    const { options } = joinedSample("ctx-fork-port-");
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
    expect(unweighedQuery(asked[0] as TeamCandidatesRequest)).toContain("phoenix");
    expect(result.notices).toEqual(["team results left out: a test said so"]);

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

  it("reads the local index while the team's statement runs, and merges the team's hits that come after", async () => {
    const { env, options } = joinedSample("ctx-fork-overlap-");
    await runForkDetect({ query: "phoenix server" }, options);
    // The search's own reader of the index (one per file for the process): its candidates' read is watched.
    const index = openReader(resolveIndexPath(env));
    const read = index.searchChunks;
    let markRead = () => {};
    const localRead = new Promise<void>((resolve) => {
      markRead = resolve;
    });
    index.searchChunks = (...args) => {
      markRead();
      return read.apply(index, args);
    };
    try {
      const result = await runForkDetect(
        { query: "phoenix server", scope: "all" },
        {
          ...options,
          refreshBudgetMs: 0,
          teamCandidates: async (request) => {
            request.onAsked?.();
            // Answers only once the local index was read: a search that waited for the team first never ends.
            await localRead;
            return {
              candidates: {
                chunks: [teamChunkRow("team-phoenix", "phoenix server restarted")],
                sessions: new Map([
                  ["team-phoenix", teamSessionRow("team-phoenix", Date.now() - 3_600_000, Date.now())],
                ]),
              },
              notice: null,
            };
          },
        },
      );
      expect(result.notices).toEqual([]);
      expect(result.candidates.map((c) => c.sessionId)).toContain("team-phoenix");
      expect(result.candidates.some((c) => c.team === undefined)).toBe(true);
    } finally {
      index.searchChunks = read;
    }
  });
});

/** The sample transcripts in a new folder, and fork detection's options with a team joined (its server never asked). */
function joinedSample(prefix: string) {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const claudeDir = join(base, "claude");
  writeSampleClaudeDir(claudeDir);
  const env = { CLAUDE_CONFIG_DIR: claudeDir, CTX_HOME: join(base, "home") };
  const config = defaultConfig();
  const joined = { ...config, team: { ...config.team, url: "postgresql://db.example/library", name: "web" } };
  return { env, options: { config: joined, env, projectRoot: "/x", now: () => Date.now() } };
}
