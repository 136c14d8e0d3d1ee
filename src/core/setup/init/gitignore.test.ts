import { describe, expect, it } from "vitest";
import {
  addCtxToGitignore,
  GITIGNORE_MARKER,
  gitignoreIgnoresCtx,
  gitignoreIgnoresLocalSettings,
  removeCtxFromGitignore,
} from "./gitignore.ts";

const LOCAL = ".claude/settings.local.json";

describe(".gitignore", () => {
  it("creates the file with the marker and the line", () => {
    expect(addCtxToGitignore(null)).toEqual({
      text: `${GITIGNORE_MARKER}\n.ctx/\n${LOCAL}\n`,
      details: ["+ .ctx/", `+ ${LOCAL}`],
    });
  });

  it("appends after the user's lines, adding a missing newline first", () => {
    expect(addCtxToGitignore("node_modules/")?.text).toBe(`node_modules/\n${GITIGNORE_MARKER}\n.ctx/\n${LOCAL}\n`);
  });

  it("does not duplicate a line that already ignores .ctx", () => {
    for (const line of [".ctx/", "/.ctx", ".ctx"])
      expect(addCtxToGitignore(`dist\n${line}\n.claude/\n`).details).toEqual([]);
    expect(addCtxToGitignore("dist\n.ctx/\n").details).toEqual([`+ ${LOCAL}`]);
    for (const line of ["*.local.json", "/.claude/settings.local.json", ".claude/*"])
      expect(addCtxToGitignore(`.ctx\n${line}\n`).details).toEqual([]);
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

  it("an older block holding only .ctx/ gets the settings.local.json line inside it, and --remove takes both", () => {
    const older = `dist/\n${GITIGNORE_MARKER}\n.ctx/\nbuild/\n`;
    const upgraded = addCtxToGitignore(older);
    expect(upgraded).toEqual({
      text: `dist/\n${GITIGNORE_MARKER}\n.ctx/\n${LOCAL}\nbuild/\n`,
      details: [`+ ${LOCAL}`],
    });
    expect(addCtxToGitignore(upgraded.text).details).toEqual([]);
    expect(removeCtxFromGitignore(upgraded.text)).toEqual({
      text: "dist/\nbuild/\n",
      details: ["- .ctx/", `- ${LOCAL}`],
    });
  });

  it("knows when .ctx/ is ignored", () => {
    expect(gitignoreIgnoresLocalSettings(".claude/\n")).toBe(true);
    expect(gitignoreIgnoresLocalSettings(".claude/settings.json\n")).toBe(false);
    expect(gitignoreIgnoresCtx("a\n  .ctx/  \n")).toBe(true);
    expect(gitignoreIgnoresCtx("a\n.ctx-other/\n")).toBe(false);
  });
});
