import { describe, expect, it } from "vitest";
import { parseTimeBound, projectFolderName, selectProjects } from "./fork-query.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const DAY = 86_400_000;

describe("parseTimeBound", () => {
  it("reads ISO dates and relative ages", () => {
    expect(parseTimeBound("2026-10-01", NOW)).toBe(Date.parse("2026-10-01"));
    expect(parseTimeBound("2026-10-01T08:30:00Z", NOW)).toBe(Date.parse("2026-10-01T08:30:00Z"));
    expect(parseTimeBound("7d", NOW)).toBe(NOW - 7 * DAY);
    expect(parseTimeBound("3w", NOW)).toBe(NOW - 21 * DAY);
    expect(parseTimeBound("2m", NOW)).toBe(NOW - 60 * DAY);
    expect(parseTimeBound("1Y", NOW)).toBe(NOW - 365 * DAY);
  });

  it("returns null for anything else", () => {
    expect(parseTimeBound("yesterday", NOW)).toBeNull();
    expect(parseTimeBound("7x", NOW)).toBeNull();
    expect(parseTimeBound("2026-13-45", NOW)).toBeNull();
    expect(parseTimeBound("", NOW)).toBeNull();
  });
});

describe("project filters", () => {
  const known = ["-home-user-app", "-home-user-app-worktrees-fix", "-home-user-spotter"];

  it("names a folder the way Claude Code does", () => {
    expect(projectFolderName("/home/marco/projects/spotter-worktrees/spotter-dov")).toBe(
      "-home-marco-projects-spotter-worktrees-spotter-dov",
    );
    expect(projectFolderName("/home/a.b/c_d")).toBe("-home-a-b-c-d");
  });

  it("selects this project, a path, an exact name or a part", () => {
    expect(selectProjects("this", "/home/user/app", known)).toEqual(["-home-user-app"]);
    expect(selectProjects(".", "/home/user/app", known)).toEqual(["-home-user-app"]);
    expect(selectProjects("/home/user/spotter", "/x", known)).toEqual(["-home-user-spotter"]);
    expect(selectProjects("-home-user-app", "/x", known)).toEqual(["-home-user-app"]);
    expect(selectProjects("APP", "/x", known)).toEqual(["-home-user-app", "-home-user-app-worktrees-fix"]);
    expect(selectProjects("nothing", "/x", known)).toEqual([]);
  });

  it("keeps an unknown current project as a filter that matches nothing rather than everything", () => {
    expect(selectProjects("this", "/elsewhere", known)).toEqual(["-elsewhere"]);
  });
});
