import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { teamChunkRow, teamSessionRow } from "../../tests/helpers/team-rows.ts";
import { FEEDBACK_DOCUMENTS } from "../core/search/feedback.ts";
import { tokenizeForSearch } from "../core/search/tokens.ts";
import { openSessionIndex } from "./session-index/session-index.ts";
import { scoreTeamCandidates, teamQueryText, teamWeighing } from "./team-hits.ts";

/** The team's statistics for the query words of these tests: a corpus of 1,000 chunks. */
const STATISTICS = {
  chunks: 1_000,
  tokens: 20_000,
  docs: new Map([
    ["phoenix", 40],
    ["liveview", 30],
    ["reconnect", 50],
  ]),
};

const model = (terms: string[]) => ({ terms, idf: terms.map(() => 1), averageTokens: 100, reference: 3 });

describe("teamQueryText", () => {
  it("sends the words whose tokens the local index would match, as written", () => {
    expect(teamQueryText("Start the Phoenix server in the background", model(["phoenix", "background"]))).toBe(
      "Phoenix background",
    );
    // An identifier's whole form or any of its parts counts.
    expect(teamQueryText("fix parseTranscriptLine now", model(["transcript"]))).toBe("parseTranscriptLine");
  });

  it("sends the server terms when the model has them (a small index scored whole keeps common words to score)", () => {
    const whole = { ...model(["deploi", "kubernet"]), serverTerms: ["kubernet"] };
    expect(teamQueryText("deploy the kubernetes operator", whole)).toBe("kubernetes");
  });

  it("sends the whole query when the model keeps no word of it", () => {
    expect(teamQueryText("start the server", model([]))).toBe("start the server");
    expect(teamQueryText("start the server", model(["elsewhere"]))).toBe("start the server");
  });
});

describe("scoreTeamCandidates", () => {
  it("hands the search the token streams the feedback words were picked from, as the search tokenizes a hit", () => {
    const index = openSessionIndex(join(mkdtempSync(join(tmpdir(), "ctx-team-hits-")), "index.db"));
    try {
      const query = "phoenix liveview reconnect";
      const texts = Array.from(
        { length: FEEDBACK_DOCUMENTS + 4 },
        (_, i) =>
          `The Phoenix LiveView socket ${i} would not reconnect after deployTarget changed; retried ${i} times.`,
      );
      texts.push("Nothing of the query here, only unrelated words about gardening.");
      const chunks = texts.map((text, i) => teamChunkRow(`s${i}`, text));
      const sessions = new Map(chunks.map((chunk) => [chunk.sessionId, teamSessionRow(chunk.sessionId, 1, 2)]));
      const statistics = STATISTICS;
      const weighing = teamWeighing(query, { feedback: true });
      expect(weighing.moreTerms?.(chunks, statistics).length).toBeGreaterThan(0);
      const scored = scoreTeamCandidates(index, query, { chunks, sessions, statistics }, { skipLocal: false });
      // The best FEEDBACK_DOCUMENTS chunks' streams, each exactly what the search's own tokenizing gives.
      expect(scored.tokens.size).toBe(FEEDBACK_DOCUMENTS);
      for (const hit of scored.hits) {
        const stream = scored.tokens.get(hit.chunkId);
        if (stream !== undefined) expect(stream).toEqual(tokenizeForSearch(hit.text).split(" "));
      }
      // Without feedback, nothing was tokenized for it.
      const plain = scoreTeamCandidates(
        index,
        query,
        { chunks: chunks.map((chunk) => ({ ...chunk })), sessions, statistics },
        { skipLocal: false },
      );
      expect(plain.tokens.size).toBe(0);
    } finally {
      index.close();
    }
  });
});

describe("teamWeighing's sessions to read", () => {
  const statistics = STATISTICS;
  const query = "phoenix liveview reconnect";
  // Session s<i> holds i of the query's words in its best chunk (s3 all three); s9 none of them.
  const chunks = [
    teamChunkRow("s1", "The phoenix build was slow on the runner today."),
    teamChunkRow("s2", "A phoenix liveview page lost its state on deploy."),
    teamChunkRow("s3", "The phoenix liveview socket would not reconnect after the deploy."),
    teamChunkRow("s3", "Another note about phoenix from the same session."),
    teamChunkRow("s4", "The phoenix liveview socket would not reconnect; kubernetes restarted the pod."),
    teamChunkRow("s9", "Nothing of the query here, only gardening."),
  ];

  it("are the sessions of the best candidates, best first, as many as asked", () => {
    const weighing = teamWeighing(query, { feedback: false, sessions: { count: 3 } });
    const read = weighing.sessionsToRead?.(chunks, statistics);
    // What scoring every candidate ranks first, by each session's best chunk.
    const index = openSessionIndex(join(mkdtempSync(join(tmpdir(), "ctx-team-hits-")), "index.db"));
    try {
      const sessions = new Map(chunks.map((chunk) => [chunk.sessionId, teamSessionRow(chunk.sessionId, 1, 2)]));
      const all = scoreTeamCandidates(index, query, { chunks, sessions, statistics }, { skipLocal: false });
      const leaders = [...new Set(all.hits.map((hit) => hit.sessionId))];
      expect(leaders.slice(0, 3).sort()).toEqual(["s2", "s3", "s4"]);
      expect(read).toEqual(leaders.slice(0, 3));
    } finally {
      index.close();
    }
    // A session none of whose candidates match is never read; fewer sessions than asked: all that match.
    expect(
      teamWeighing(query, { feedback: false, sessions: { count: 10 } }).sessionsToRead?.(chunks, statistics),
    ).toHaveLength(4);
    // Without `sessions`, every candidate's session is read (fetchTeamCandidates reads them all).
    expect(teamWeighing(query, { feedback: false }).sessionsToRead).toBeUndefined();
  });

  it("leave out the sessions the query excludes, and count the next ones instead", () => {
    const weighing = teamWeighing(query, { feedback: false, sessions: { count: 2, excluded: ["kubernetes"] } });
    const read = weighing.sessionsToRead?.(chunks, statistics) ?? [];
    expect(read).not.toContain("s4");
    expect([...read].sort()).toEqual(["s2", "s3"]);
  });
});
