import { describe, expect, it } from "vitest";
import { addCtxToGitignore, GITIGNORE_MARKER, gitignoreIgnoresCtx, removeCtxFromGitignore } from "./init-gitignore.ts";

describe(".gitignore", () => {
  it("creates the file with the marker and the line", () => {
    expect(addCtxToGitignore(null)).toEqual({ text: `${GITIGNORE_MARKER}\n.ctx/\n`, details: ["+ .ctx/"] });
  });

  it("appends after the user's lines, adding a missing newline first", () => {
    expect(addCtxToGitignore("node_modules/")?.text).toBe(`node_modules/\n${GITIGNORE_MARKER}\n.ctx/\n`);
  });

  it("does not duplicate a line that already ignores .ctx", () => {
    for (const line of [".ctx/", "/.ctx", ".ctx"]) expect(addCtxToGitignore(`dist\n${line}\n`).details).toEqual([]);
  });

  it("remove restores the original byte for byte", () => {
    const original = "node_modules/\r\ndist/\r\n";
    const added = addCtxToGitignore(original).text;
    expect(added).toContain("\r\n.ctx/\r\n");
    expect(removeCtxFromGitignore(added).text).toBe(original);
  });

  it("remove deletes a file ctx created and keeps the user's own .ctx/ line", () => {
    expect(removeCtxFromGitignore(addCtxToGitignore(null).text).text).toBeNull();
    expect(removeCtxFromGitignore("dist\n.ctx/\n")).toMatchObject({ text: "dist\n.ctx/\n" });
  });

  it("knows when .ctx/ is ignored", () => {
    expect(gitignoreIgnoresCtx("a\n  .ctx/  \n")).toBe(true);
    expect(gitignoreIgnoresCtx("a\n.ctx-other/\n")).toBe(false);
  });
});
