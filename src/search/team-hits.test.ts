import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { teamChunkRow, teamSessionRow } from "../../tests/helpers/team-rows.ts";
import { FEEDBACK_DOCUMENTS } from "../core/search/feedback.ts";
import { tokenizeForSearch } from "../core/search/tokens.ts";
import { openSessionIndex } from "./session-index/session-index.ts";
import { scoreTeamCandidates, teamQueryText, teamWeighing } from "./team-hits.ts";

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
      const statistics = {
        chunks: 1_000,
        tokens: 20_000,
        docs: new Map([
          ["phoenix", 40],
          ["liveview", 30],
        ]),
      };
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
