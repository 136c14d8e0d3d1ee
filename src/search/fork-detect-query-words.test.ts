// Time words and exclusions end to end through runForkDetect: real transcripts with controlled timestamps, a real
// SQLite index, a fixed clock in a pinned time zone (Europe/Berlin), and the team port seeing the same window.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teamChunkRow, teamSessionRow } from "../../tests/helpers/team-rows.ts";
import { timedExchange } from "../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../config/defaults.ts";
import { type TeamCandidatesRequest, unweighedQuery } from "../core/search/team-candidates.ts";
import { forkDetectReportOf, runForkDetect } from "./fork-detect.ts";
import { ForkDetectReportSchema } from "./fork-report-schema.ts";

const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "Europe/Berlin";
});
afterAll(() => {
  process.env.TZ = savedTz;
});

/** A two-line session (a prompt and its reply) at a local time; Claude Code's 2.1.x line shape. */
const session = (id: string, at: Date, prompt: string, reply: string) =>
  timedExchange({ sessionId: id, cwd: "/home/user/app" }, at, prompt, reply);

/** The fixture's sessions: id, local start, prompt, reply. */
const SESSIONS: ReadonlyArray<readonly [string, Date, string, string]> = [
  [
    "docker-week",
    new Date(2026, 10, 24, 15),
    "the docker bridge network drops packets",
    "The docker network needed its MTU lowered.",
  ],
  [
    "docker-old",
    new Date(2026, 9, 5, 9),
    "docker network docker bridge docker packets",
    "Docker networking: the bridge network and its packets, docker again.",
  ],
  [
    "k8s-week",
    new Date(2026, 10, 26, 11),
    "docker network inside kubernetes pods",
    "Kubernetes runs the docker network through its CNI.",
  ],
  ["y-morning", new Date(2026, 11, 1, 9), "style the login form css", "The form uses flexbox now."],
  ["y-evening", new Date(2026, 11, 1, 20), "redis cache eviction policy", "allkeys-lru it is."],
  [
    "vacuum-old",
    new Date(2026, 9, 12, 9),
    "postgres autovacuum thresholds for the orders table",
    "Lowered autovacuum_vacuum_scale_factor on orders: postgres vacuums the orders table hourly now.",
  ],
  [
    "notes-week",
    new Date(2026, 10, 25, 14),
    "tidy the release notes for 2.4",
    "The release notes are tidied: the driver bump for postgres, the new icons and fonts, the translations, the " +
      "settings page, the keyboard shortcuts, the onboarding tour and the export dialog each have a line.",
  ],
  ["lint-before", new Date(2026, 10, 5, 9), "eslint rules for the monorepo", "The eslint rules are in place."],
  ["pnpm-move", new Date(2026, 10, 10, 9), "migrate the repo from npm to pnpm", "The migration to pnpm is done."],
  ["lint-after", new Date(2026, 10, 20, 9), "eslint rules for the monorepo", "The eslint rules are in place."],
];

function fixture() {
  const base = mkdtempSync(join(tmpdir(), "ctx-query-words-"));
  const claudeDir = join(base, "claude");
  const project = join(claudeDir, "projects", "-home-user-app");
  mkdirSync(project, { recursive: true });
  for (const [id, at, prompt, reply] of SESSIONS) {
    writeFileSync(join(project, `${id}.jsonl`), session(id, at, prompt, reply));
  }
  const env = { CLAUDE_CONFIG_DIR: claudeDir, CTX_HOME: join(base, "home") };
  // Wednesday 2 December 2026, 10:30 in Berlin.
  const now = () => new Date(2026, 11, 2, 10, 30).getTime();
  return { env, options: { config: defaultConfig(), env, projectRoot: "/home/user/app", now } };
}

describe("runForkDetect with time words and exclusions", () => {
  const { options } = fixture();
  const ids = (result: { candidates: Array<{ sessionId: string }> }) => result.candidates.map((c) => c.sessionId);

  it("searches a query without them exactly as before: no understood field, the same text", async () => {
    const result = await runForkDetect({ query: "docker network" }, options);
    expect(new Set(ids(result))).toEqual(new Set(["docker-old", "docker-week", "k8s-week"]));
    expect(result.understood).toBeUndefined();
    expect(forkDetectReportOf(result)).not.toHaveProperty("understood");
    expect(forkDetectReportOf(result).message).toMatch(/^Sessions matching "docker network", best first:/);
  });

  it("filters by a relative period, searches without the time words, and says so", async () => {
    const result = await runForkDetect({ query: "docker network last week" }, options);
    expect(new Set(ids(result))).toEqual(new Set(["docker-week", "k8s-week"]));
    const report = ForkDetectReportSchema.parse(forkDetectReportOf(result));
    expect(report.message.split("\n")[0]).toBe("Searched sessions from 23–29 Nov 2026 (last week).");
    expect(report.message).toContain('Sessions matching "docker network", best first:');
    expect(report.understood).toMatchObject({
      searched: "docker network",
      period: {
        from: new Date(2026, 10, 23).toISOString(),
        to: new Date(2026, 10, 30).toISOString(),
        words: ["last week"],
        description: "from 23–29 Nov 2026",
      },
      excluded: [],
      listing: false,
      widened: false,
    });
  });

  it("leaves out the sessions an exclusion names, and does not search its words", async () => {
    const result = await runForkDetect({ query: "last week docker network -kubernetes" }, options);
    expect(ids(result)).toEqual(["docker-week"]);
    expect(forkDetectReportOf(result).message).toContain('Left out sessions about "kubernetes".');
    const spoken = await runForkDetect({ query: "docker network not about kubernetes" }, options);
    expect(new Set(ids(spoken))).toEqual(new Set(["docker-old", "docker-week"]));
  });

  it("lists yesterday's sessions, newest first, for a query of time words alone", async () => {
    const result = await runForkDetect({ query: "what did I do yesterday" }, options);
    expect(result.candidates).toEqual([]);
    expect(result.recent.map((s) => s.sessionId)).toEqual(["y-evening", "y-morning"]);
    const report = ForkDetectReportSchema.parse(forkDetectReportOf(result));
    expect(report.understood?.listing).toBe(true);
    expect(report.message).toContain("Sessions on 1 Dec 2026, most recent first:");
    // "this morning" on Wednesday holds no session: an empty listing, said plainly.
    const empty = await runForkDetect({ query: "this morning" }, options);
    expect(empty.recent).toEqual([]);
    expect(forkDetectReportOf(empty).message).toContain("No session on 2 Dec 2026, 00:00–12:00 is in the index");
  });

  it("widens a window that holds no session, or none that matches, to every date, and says so", async () => {
    const result = await runForkDetect({ query: "docker network three years ago" }, options);
    expect(new Set(ids(result))).toEqual(new Set(["docker-old", "docker-week", "k8s-week"]));
    expect(result.widened).toBe("empty");
    // Widened, the time words are searched as the words they are, as before they were read.
    expect(forkDetectReportOf(result).understood?.searched).toBe("docker network three years ago");
    expect(forkDetectReportOf(result).message.split("\n")[0]).toBe(
      "No session is from 1 Jan – 31 Dec 2023 (three years ago): searched sessions of any date.",
    );
    // A window with sessions, none of which match, and another day's session that does (remembered in the wrong
    // week): every date searched, and said so.
    const elsewhere = await runForkDetect({ query: "redis eviction last week" }, options);
    expect(ids(elsewhere)).toEqual(["y-evening"]);
    expect(elsewhere.widened).toBe("unmatched");
    const report = ForkDetectReportSchema.parse(forkDetectReportOf(elsewhere));
    expect(report.understood).toMatchObject({ widened: true, searched: "redis eviction last week" });
    expect(report.message.split("\n")[0]).toBe(
      "No session from 23–29 Nov 2026 (last week) matches: searched sessions of any date.",
    );
    // No date holds a match: nothing found, the window's sessions offered.
    const none = await runForkDetect({ query: "terraform state last week" }, options);
    expect(none.candidates).toEqual([]);
    expect(none.widened).toBe(false);
    expect(none.recent.map((s) => s.sessionId)).toEqual(["k8s-week", "notes-week", "docker-week"]);
  });

  it("widens a window of weak matches only for a strong match of another date, and says so", async () => {
    const weak = (result: Awaited<ReturnType<typeof runForkDetect>>) =>
      result.candidates.map((c) => [c.sessionId, c.weak]);
    // Last week's one match names postgres in passing (weak); October's session is about the question (strong).
    const elsewhere = await runForkDetect({ query: "postgres autovacuum orders table last week" }, options);
    expect(elsewhere.widened).toBe("weak");
    expect(weak(elsewhere)).toEqual([
      ["vacuum-old", false],
      ["notes-week", true],
    ]);
    const report = ForkDetectReportSchema.parse(forkDetectReportOf(elsewhere));
    expect(report.understood).toMatchObject({ widened: true, searched: "postgres autovacuum orders table last week" });
    expect(report.message.split("\n")[0]).toBe(
      "No session from 23–29 Nov 2026 (last week) matches strongly: searched sessions of any date.",
    );
    // No date holds a strong match: the window's weak match is the answer, the window kept.
    const nowhere = await runForkDetect({ query: "postgres replication lag last week" }, options);
    expect(nowhere.widened).toBe(false);
    expect(weak(nowhere)).toEqual([["notes-week", true]]);
    // A strong match inside the window: the window kept, whatever matches elsewhere.
    const inside = await runForkDetect({ query: "postgres driver bump release notes last week" }, options);
    expect(inside.widened).toBe(false);
    expect(weak(inside)).toEqual([["notes-week", false]]);
  });

  it("ranks the sessions on an event's side higher, the event found by its words", async () => {
    const plain = await runForkDetect({ query: "eslint rules monorepo" }, options);
    // Alike in words: recency puts the later one first.
    expect(ids(plain).slice(0, 2)).toEqual(["lint-after", "lint-before"]);
    const before = await runForkDetect({ query: "eslint rules monorepo before the migration to pnpm" }, options);
    expect(before.eventSession?.id).toBe("pnpm-move");
    expect(ids(before).indexOf("lint-before")).toBeLessThan(ids(before).indexOf("lint-after"));
    const report = ForkDetectReportSchema.parse(forkDetectReportOf(before));
    expect(report.understood?.event).toMatchObject({ side: "before", sessionId: "pnpm-move" });
    expect(report.message.split("\n")[0]).toBe(
      'Ranked sessions before "the migration to pnpm" higher (the session "migrate the repo from npm to pnpm", 10 Nov 2026).',
    );
    const after = await runForkDetect({ query: "eslint rules monorepo after the migration to pnpm" }, options);
    expect(ids(after).indexOf("lint-after")).toBeLessThan(ids(after).indexOf("lint-before"));
    // No session holds the event's words: said, and the ranking is the plain one.
    const unknown = await runForkDetect({ query: "eslint rules monorepo before the zanzibar offsite" }, options);
    expect(unknown.eventSession).toBeNull();
    expect(forkDetectReportOf(unknown).message).toMatch(/^Found no session about "the zanzibar offsite"/);
  });

  it("gives the team side the window and the searched words, and drops its chunks that hold an exclusion", async () => {
    const config = defaultConfig();
    const joined = { ...config, team: { ...config.team, url: "postgresql://db.example/library", name: "web" } };
    const asked: TeamCandidatesRequest[] = [];
    const teamSession = (id: string) =>
      teamSessionRow(id, new Date(2026, 10, 25).getTime(), new Date(2026, 10, 25, 1).getTime());
    const chunk = teamChunkRow;
    const result = await runForkDetect(
      { query: "docker network last week -kubernetes", scope: "all" },
      {
        ...options,
        config: joined,
        teamCandidates: async (request) => {
          asked.push(request);
          return {
            candidates: {
              chunks: [
                chunk("team-plain", "docker network bridge fixed"),
                chunk("team-k8s", "docker network under kubernetes"),
              ],
              sessions: new Map([
                ["team-plain", teamSession("team-plain")],
                ["team-k8s", teamSession("team-k8s")],
              ]),
            },
            notice: null,
          };
        },
      },
    );
    expect(asked[0]?.filters).toEqual({
      since: new Date(2026, 10, 23).getTime(),
      until: new Date(2026, 10, 30).getTime() - 1,
    });
    expect(unweighedQuery(asked[0] as TeamCandidatesRequest)).not.toMatch(/week|kubernetes/);
    expect(ids(result)).toContain("team-plain");
    expect(ids(result)).not.toContain("team-k8s");
    expect(ids(result)).not.toContain("k8s-week");
  });
});
