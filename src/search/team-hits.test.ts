import { describe, expect, it } from "vitest";
import { teamQueryText } from "./team-hits.ts";

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
