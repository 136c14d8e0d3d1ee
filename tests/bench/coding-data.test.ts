import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FIXTURE_REPO,
  findCodingDir,
  fixtureSessions,
  layoutClaudeDir,
  loadCoding,
  personsOf,
  readTsv,
} from "../../bench/coding-data.ts";
import { readSessionText } from "../../bench/retrieval-bm25.ts";
import { codingBaseline, codingMisses, summarizeCoding, summarizeCodingQueries } from "../../bench/retrieval-coding.ts";
import { compareRankings } from "../../bench/retrieval-shipped.ts";

let dir: string;

const line = (role: "user" | "assistant", content: unknown) =>
  JSON.stringify({ type: role, message: { role, content } });

/** A tiny coding split: two people (repos), three sessions, one not-JSON line; a fixture folder with a subagent. */
function writeSplit(root: string): { coding: string; fixtures: string } {
  const coding = join(root, "eval", "coding");
  const sessions = [
    ["acme/router", "r1", "-home-a-router", "set up the wireguard tunnel on the router"],
    ["acme/router", "r2", "-home-a-router", "the dns resolver keeps timing out"],
    ["beta/site", "s1", "-home-b-site", "deploy the static site with a github action"],
  ];
  const rows = ["repo\tcommit\tpath_in_repo\tsessionId\tfolder\tlicence"];
  for (const [repo, id, folder, text] of sessions as [string, string, string, string][]) {
    rows.push(`${repo}\tabc\tArchives/${id}.jsonl\t${id}\t${folder}\tMIT`);
    mkdirSync(join(coding, "claude", "projects", folder), { recursive: true });
    const body = [
      line("user", text),
      '{"type":"assistant","message":{"content":[{"type":"te', // redacted in place: not JSON
      line("assistant", [
        { type: "text", text: "done" },
        { type: "tool_use", name: "Bash", input: { command: `echo ${id}-marker`, flags: ["--quiet"] } },
      ]),
    ];
    writeFileSync(join(coding, "claude", "projects", folder, `${id}.jsonl`), `${body.join("\n")}\n`);
  }
  writeFileSync(join(coding, "sessions.tsv"), `${rows.join("\n")}\n`);
  const queries = [
    {
      id: "q1",
      query: "wireguard tunnel router",
      kind: "same-task",
      relevant_session_ids: ["r1"],
      repo: "acme/router",
    },
    { id: "q2", query: "dns timing out", kind: "error", relevant_session_ids: ["r2"], repo: "acme/router" },
    { id: "q3", query: "github action deploy", kind: "same-task", relevant_session_ids: ["s1"], repo: "beta/site" },
  ];
  writeFileSync(join(coding, "queries.jsonl"), `${queries.map((q) => JSON.stringify(q)).join("\n")}\n`);
  const fixtures = join(root, "fixtures-claude");
  const project = join(fixtures, "projects", "-home-c-app");
  mkdirSync(join(project, "f1", "subagents"), { recursive: true });
  writeFileSync(join(project, "f1.jsonl"), `${line("user", "fix the flaky login test")}\n`);
  writeFileSync(join(project, "f1", "subagents", "agent-1.jsonl"), `${line("user", "look at the test")}\n`);
  return { coding, fixtures };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-coding-data-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("coding split loader", () => {
  it("finds the folder from CTX_CODING_EVAL_DIR (the folder or its parent), else null", () => {
    const { coding } = writeSplit(dir);
    expect(findCodingDir({ CTX_CODING_EVAL_DIR: coding })).toBe(coding);
    expect(findCodingDir({ CTX_CODING_EVAL_DIR: join(dir, "eval") })).toBe(coding);
    expect(findCodingDir({ CTX_CODING_EVAL_DIR: join(dir, "nowhere") })).toBeNull();
  });

  it("reads sessions.tsv and the given queries; without an own file there are no own queries", () => {
    const { coding } = writeSplit(dir);
    expect(readTsv(join(coding, "sessions.tsv"))[2]).toMatchObject({ repo: "beta/site", sessionId: "s1" });
    const data = loadCoding(coding, { ownQueries: join(dir, "absent.jsonl") });
    expect(data.ownQueries).toBeNull();
    expect(data.sessions.map((s) => s.sessionId)).toEqual(["r1", "r2", "s1"]);
    expect(data.sessions[0]?.path).toBe(join(coding, "claude", "projects", "-home-a-router", "r1.jsonl"));
    expect(data.queries.map((q) => [q.id, q.source])).toEqual([
      ["q1", "given"],
      ["q2", "given"],
      ["q3", "given"],
    ]);
    expect(personsOf(data).map((p) => [p.repo, p.sessions.length, p.queries.length])).toEqual([
      ["acme/router", 2, 2],
      ["beta/site", 1, 1],
    ]);
  });

  it("adds own queries apart, and the fixture folder as a person of its own when one names it", () => {
    const { coding, fixtures } = writeSplit(dir);
    const own = join(dir, "own.jsonl");
    const ownQueries = [
      { id: "o1", query: "flaky login", kind: "error", relevant_session_ids: ["f1"], repo: FIXTURE_REPO },
      { id: "o2", query: "router vpn", kind: "vague", relevant_session_ids: ["r1"], repo: "acme/router" },
    ];
    writeFileSync(own, ownQueries.map((q) => JSON.stringify(q)).join("\n"));
    const data = loadCoding(coding, { ownQueries: own, fixtureDir: fixtures });
    expect(data.ownQueries).toBe(own);
    expect(data.queries.filter((q) => q.source === "own").map((q) => q.id)).toEqual(["o1", "o2"]);
    expect(data.sessions.at(-1)).toMatchObject({ repo: FIXTURE_REPO, sessionId: "f1", folder: "-home-c-app" });
    expect(personsOf(data).map((p) => p.repo)).toEqual(["acme/router", "beta/site", FIXTURE_REPO]);
    // Only the transcripts directly in a project folder are sessions (the subagent travels with its session).
    expect(fixtureSessions(fixtures).map((s) => s.sessionId)).toEqual(["f1"]);
  });

  it("refuses an answer key that names a session its person does not have, and a line that is not JSON", () => {
    const { coding } = writeSplit(dir);
    const own = join(dir, "own.jsonl");
    writeFileSync(
      own,
      JSON.stringify({ id: "o1", query: "x", kind: "vague", relevant_session_ids: ["s1"], repo: "acme/router" }),
    );
    expect(() => loadCoding(coding, { ownQueries: own })).toThrow(/o1 \(own\): s1 is not a session of acme\/router/);
    writeFileSync(own, "{not json\n");
    expect(() => loadCoding(coding, { ownQueries: own })).toThrow(/own\.jsonl:1: not JSON/);
  });

  it("lays a person's sessions out as Claude Code does, subagents beside their session", () => {
    const { coding, fixtures } = writeSplit(dir);
    const data = loadCoding(coding);
    const target = layoutClaudeDir(join(dir, "person", "claude"), personsOf(data)[0]?.sessions ?? []);
    expect(existsSync(join(target, "projects", "-home-a-router", "r1.jsonl"))).toBe(true);
    expect(existsSync(join(target, "projects", "-home-b-site"))).toBe(false);
    const withFixture = layoutClaudeDir(join(dir, "fixture", "claude"), fixtureSessions(fixtures));
    expect(
      readFileSync(join(withFixture, "projects", "-home-c-app", "f1", "subagents", "agent-1.jsonl"), "utf8"),
    ).toContain("look at the test");
  });
});

describe("coding figures", () => {
  it("reads a transcript's text and tool inputs for BM25, skipping lines that are not JSON", () => {
    const { coding } = writeSplit(dir);
    const text = readSessionText(join(coding, "claude", "projects", "-home-a-router", "r1.jsonl"));
    expect(text).toBe("set up the wireguard tunnel on the router\ndone\necho r1-marker\n--quiet");
  });

  it("summarizes per kind, given and own apart, and lists each rank-1 miss with what came first", () => {
    const { coding } = writeSplit(dir);
    const data = loadCoding(coding);
    const byKind = summarizeCodingQueries(data.queries, (q) => (q.id === "q2" ? ["r1", "r2"] : q.relevant_session_ids));
    expect(byKind.overall).toMatchObject({ queries: 3, hitAt1: 0.667, hitAt3: 1, hitAt5: 1, mrr: 0.833 });
    expect(byKind.byKind.error).toMatchObject({ queries: 1, hitAt1: 0, mrr: 0.5 });
    const answers = {
      global: new Map([
        ["q1", { ranked: ["r1"], messages: [4] }],
        ["q2", { ranked: ["r1", "s1", "r2"], messages: [4, 9, 2] }],
        ["q3", { ranked: [], messages: [] }],
      ]),
      person: new Map(data.queries.map((q) => [q.id, { ranked: q.relevant_session_ids, messages: [3] }])),
    };
    const summary = summarizeCoding(data, answers);
    expect(summary.own).toBeNull();
    expect(summary.given?.global.overall).toMatchObject({ hitAt1: 0.333, emptyAnswers: 1 });
    expect(summary.given?.person.overall.hitAt1).toBe(1);
    expect(codingMisses(data, answers)).toEqual([
      {
        setting: "global",
        source: "given",
        id: "q2",
        kind: "error",
        query: "dns timing out",
        expected: ["r2"],
        expectedRank: 3,
        expectedMessages: 2,
        first: { id: "r1", messages: 4 },
      },
      expect.objectContaining({ id: "q3", expectedRank: null, expectedMessages: null, first: null }),
    ]);
  });

  it("ranks each person's sessions with BM25 on that person's corpus only", () => {
    const { coding } = writeSplit(dir);
    const data = loadCoding(coding);
    const persons = personsOf(data).map((p) => ({
      name: p.repo,
      claudeDir: "",
      sessions: p.sessions,
      queries: p.queries,
    }));
    const global = { name: "global", claudeDir: "", sessions: data.sessions, queries: data.queries };
    const baseline = codingBaseline(data, [global, ...persons]);
    expect(baseline.given?.global.overall.hitAt1).toBe(1);
    expect(baseline.given?.person.overall.hitAt1).toBe(1);
  });

  it("compares two runs query by query on their top ids", () => {
    const check = compareRankings(["a", "b", "c"], [["x", "y"], ["y"], []], [["x", "y"], ["z"], []]);
    expect(check).toEqual({ queries: 3, identical: 2, differing: [{ id: "b", inProcess: ["y"], shipped: ["z"] }] });
  });
});
