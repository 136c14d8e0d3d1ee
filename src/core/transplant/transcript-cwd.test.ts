import { describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { authorCheckoutRoot, firstTranscriptCwd, MAX_JSON_DEPTH, rewriteTranscriptCwd } from "./transcript-cwd.ts";

describe("a teammate's transcript moved to this checkout", () => {
  it("finds the author's checkout root from the first cwd and the path inside the repository", () => {
    expect(authorCheckoutRoot("/home/al/app/packages/web", "packages/web")).toEqual({
      root: "/home/al/app",
      inside: "",
    });
    expect(authorCheckoutRoot("/home/al/app/", "")).toEqual({ root: "/home/al/app", inside: "" });
    // A session started elsewhere in the repository: its folder stands for the project's.
    expect(authorCheckoutRoot("/home/al/app/tools", "packages/web")).toEqual({
      root: "/home/al/app/tools",
      inside: "packages/web",
    });
  });

  it("moves every cwd at or under the root, at any depth, keeps other lines' bytes and a bad line", () => {
    const text = [
      '{"cwd":"/home/al/app","a":1}',
      '{"type":"x",  "spaced": true}',
      '{"cwd":"/home/al/application"}',
      '{"cwd":"/home/al/app/sub","nested":[{"cwd":"/home/al/app/deep"}]}',
      '{"cwd": broken',
      "",
    ].join("\n");
    const out = rewriteTranscriptCwd(text, { from: "/home/al/app", to: "/srv/bob/clone/" });
    expect(out.rewritten).toBe(3);
    expect(out.firstCwd).toBe("/srv/bob/clone");
    expect(out.text.split("\n")).toEqual([
      '{"cwd":"/srv/bob/clone","a":1}',
      '{"type":"x",  "spaced": true}',
      '{"cwd":"/home/al/application"}',
      '{"cwd":"/srv/bob/clone/sub","nested":[{"cwd":"/srv/bob/clone/deep"}]}',
      '{"cwd": broken',
      "",
    ]);
    expect(firstTranscriptCwd('{"cwd": broken\n{"type":"x"}\n{"cwd":"/a"}\n')).toBe("/a");
  });

  it("refuses a line nested 100,000 deep with a CtxError naming the line, not a RangeError", async () => {
    const deep = 100_000;
    const text = `{"cwd":"/home/al/app"}\n{"cwd":"/home/al/app","x":${"[".repeat(deep)}${"]".repeat(deep)}}\n`;
    expect(firstTranscriptCwd(text)).toBe("/home/al/app");
    const error = await rejectedCtxError(
      (async () => rewriteTranscriptCwd(text, { from: "/home/al/app", to: "/srv/bob" }))(),
    );
    expect(error.code).toBe("STATE_CORRUPT");
    expect(error.message).toContain("line 2 of the transcript nests");
    // Just within the bound, the line is rewritten like any other.
    const within = `{"cwd":"/home/al/app","x":${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}}`;
    expect(rewriteTranscriptCwd(within, { from: "/home/al/app", to: "/srv/bob" }).rewritten).toBe(1);
  });

  it("keeps a __proto__ field a field", () => {
    const out = rewriteTranscriptCwd('{"__proto__":{"cwd":"/tmp/x"},"cwd":"/home/al/app"}', {
      from: "/home/al/app",
      to: "/srv/bob",
    });
    expect(JSON.parse(out.text)).toEqual(JSON.parse('{"__proto__":{"cwd":"/tmp/x"},"cwd":"/srv/bob"}'));
    expect(out.firstCwd).toBe("/srv/bob");
  });
});
