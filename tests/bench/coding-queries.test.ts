import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE_REPO } from "../../bench/coding-data.ts";
import {
  type CodingQuery,
  checkCodingQueries,
  FIXTURE_PROJECTS,
  findSessionFiles,
  parseCodingQueries,
  queryWords,
  sessionStrings,
  wordRuns,
} from "../../bench/coding-queries-check.ts";

// Only the queries over tests/fixtures/claude: the rest name sessions in ../shared, which tests may not read.
const queryFile = join(import.meta.dirname, "../../bench/coding-queries.jsonl");
const parsed = parseCodingQueries(readFileSync(queryFile, "utf8"));
const fixtureQueries = parsed.queries.filter((q) => q.repo === FIXTURE_REPO);
const fixtureSessions = findSessionFiles([FIXTURE_PROJECTS]);
const fixtureRepos = new Map([...fixtureSessions.keys()].map((id) => [id, FIXTURE_REPO]));

const root = mkdtempSync(join(tmpdir(), "ctx-coding-queries-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function query(overrides: Partial<CodingQuery>): CodingQuery {
  return {
    id: "t001",
    query: "phoenix dev server refuses to boot",
    kind: "error",
    relevant_session_ids: ["55604662-cf2a-4331-851a-ec234028f8ca"],
    repo: FIXTURE_REPO,
    ...overrides,
  };
}

describe("our coding queries over tests/fixtures/claude", () => {
  it("parse, and pass the checker: known kinds, unique ids, sessions present, no four words copied", () => {
    expect(parsed.problems).toEqual([]);
    expect(fixtureQueries.length).toBeGreaterThanOrEqual(12);
    expect(checkCodingQueries(FIXTURE_PROJECTS, fixtureQueries, { repoBySession: fixtureRepos })).toEqual([]);
  });

  it("cover every fixture session", () => {
    const covered = new Set(fixtureQueries.flatMap((q) => q.relevant_session_ids));
    expect([...fixtureSessions.keys()].filter((id) => !covered.has(id))).toEqual([]);
  });
});

describe("checkCodingQueries", () => {
  it("reports four words taken from the session, whatever their case and punctuation", () => {
    // 55604662 opens with the prompt "mix phx.server doesnt seem to start".
    const problems = checkCodingQueries(FIXTURE_PROJECTS, [query({ query: "Mix PHX.server, doesnt work" })]);
    expect(problems).toEqual([
      {
        kind: "copied-words",
        id: "t001",
        sessionId: "55604662-cf2a-4331-851a-ec234028f8ca",
        words: "mix phx server doesnt",
      },
    ]);
  });

  it("reports duplicate ids, unknown kinds and parts, missing or unknown sessions and a wrong repo", () => {
    const problems = checkCodingQueries(
      [FIXTURE_PROJECTS],
      [
        query({}),
        query({ kind: "howto", part: "early" }),
        query({ id: "t002", relevant_session_ids: ["00000000-0000-0000-0000-000000000000"] }),
        query({ id: "t003", relevant_session_ids: [] }),
        query({ id: "t004", repo: "someone/else" }),
      ],
      { repoBySession: fixtureRepos },
    );
    expect(problems).toEqual([
      { kind: "duplicate-id", id: "t001" },
      { kind: "unknown-kind", id: "t001", value: "howto" },
      { kind: "bad-part", id: "t001", value: "early" },
      { kind: "unknown-session", id: "t002", sessionId: "00000000-0000-0000-0000-000000000000" },
      { kind: "no-relevant-session", id: "t003" },
      {
        kind: "wrong-repo",
        id: "t004",
        sessionId: "55604662-cf2a-4331-851a-ec234028f8ca",
        expected: FIXTURE_REPO,
        actual: "someone/else",
      },
    ]);
  });

  it("reads subagent transcripts as the session's own and skips lines that are not JSON", () => {
    const projects = join(root, "projects");
    const folder = join(projects, "-home-someone-app");
    mkdirSync(join(folder, "s1", "subagents"), { recursive: true });
    const line = (text: string) => JSON.stringify({ type: "user", message: { role: "user", content: text } });
    writeFileSync(join(folder, "s1.jsonl"), `${line("rebuild the parser tables tonight")}\n{"redacted by hand\n`);
    writeFileSync(
      join(folder, "s1", "subagents", "agent-a1.jsonl"),
      `${JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", input: { command: "grep the frobnicator logs" } }] } })}\n`,
    );
    expect(findSessionFiles([projects]).get("s1")).toHaveLength(2);
    expect(sessionStrings(findSessionFiles([projects]).get("s1") ?? [])).toEqual(
      expect.arrayContaining(["rebuild the parser tables tonight", "grep the frobnicator logs"]),
    );
    const problems = checkCodingQueries(projects, [
      query({ query: "grep the frobnicator logs again", relevant_session_ids: ["s1"] }),
    ]);
    expect(problems.map((p) => (p.kind === "copied-words" ? p.words : p.kind))).toEqual(["grep the frobnicator logs"]);
  });

  it("parses a query file, reporting lines that are not queries", () => {
    const result = parseCodingQueries(`${JSON.stringify(query({}))}\n\nnot json\n{"id":"x"}\n`);
    expect(result.queries.map((q) => q.id)).toEqual(["t001"]);
    expect(result.problems.map((p) => (p.kind === "bad-line" ? p.line : 0))).toEqual([3, 4]);
  });
});

describe("words and runs", () => {
  it("lower-cases, joins apostrophes and splits on any other punctuation", () => {
    expect(queryWords("Don't STOP—now: phx.server ~/bin/claude-tmux")).toEqual([
      "dont",
      "stop",
      "now",
      "phx",
      "server",
      "bin",
      "claude",
      "tmux",
    ]);
  });

  it("never builds a run across two strings", () => {
    expect(wordRuns(["a b c", "d e f"]).size).toBe(0);
    expect([...wordRuns(["a b c d e"])]).toEqual(["a b c d", "b c d e"]);
  });
});
