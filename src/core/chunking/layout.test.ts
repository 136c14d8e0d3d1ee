import { describe, expect, it } from "vitest";
import { analyzeMarkdown, codeBlockAround } from "./layout.ts";

const blocksOf = (text: string) =>
  analyzeMarkdown(text).blocks.map((b) => [text.slice(b.start, b.end), b.fence, b.info, b.closed]);

describe("analyzeMarkdown", () => {
  it("finds fences of either kind and any length, closed only by the same character at least as long", () => {
    const text = "````md\n```\ninner\n```\n````\n~~~ sh\n```\n~~\n~~~~\nafter";
    expect(blocksOf(text)).toEqual([
      ["````md\n```\ninner\n```\n````\n", "````", "md", true],
      ["~~~ sh\n```\n~~\n~~~~\n", "~~~", "sh", true],
    ]);
  });

  it("a backtick fence whose info string holds a backtick is inline code, not a fence; ~~~ may hold one", () => {
    expect(blocksOf("```a`b```\ntext")).toEqual([]);
    expect(blocksOf("~~~a`b\ncode\n~~~")).toEqual([["~~~a`b\ncode\n~~~", "~~~", "a`b", true]]);
  });

  it("an unclosed fence runs to the end; CRLF lines close fences too", () => {
    expect(blocksOf("x\r\n```js\r\nlet a;\r\n")).toEqual([["```js\r\nlet a;\r\n", "```", "js", false]]);
    expect(blocksOf("```\r\na\r\n```\r\nb")).toEqual([["```\r\na\r\n```\r\n", "```", "", true]]);
  });

  it("ranks line starts: paragraph after a blank line, never inside code or right after a heading", () => {
    const text = "# Title\n\nIntro.\nMore.\n\n```\na\nb\n```\n\n- one\n\n- two\n\nEnd";
    const layout = analyzeMarkdown(text);
    const at = (needle: string) => text.indexOf(needle);
    expect(layout.headingBreaks).toEqual([at("\n\nIntro") + 1, at("Intro")]);
    expect(layout.paragraphBreaks).toEqual([at("```"), at("- one"), at("End")]);
    expect(layout.lineBreaks).toContain(at("More."));
    expect(layout.lineBreaks).toContain(at("- two")); // a loose list stays one unit
    expect(layout.lineBreaks).not.toContain(at("a\nb"));
    expect(codeBlockAround(layout, at("a\nb"))).not.toBeNull();
    expect(codeBlockAround(layout, at("```"))).toBeNull();
    expect(codeBlockAround(layout, at("\n\n- one") + 1)).toBeNull();
  });
});
