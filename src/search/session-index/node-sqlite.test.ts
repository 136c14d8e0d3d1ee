// node:sqlite as ctx loads it: with FTS5 on this Node, and a missing FTS5 told as the Node's fault (a Node older than
// 22.16 says "no such module: fts5", which the index used to report as damage). Node 22's ExperimentalWarning held
// back: scripts/node-smoke.sh fails on it, on the minimum Node, in CI.
import { describe, expect, it } from "vitest";
import { fts5MissingError, sqliteHasFts5 } from "./node-sqlite.ts";

describe("node-sqlite", () => {
  it("finds FTS5 in this Node's SQLite", () => {
    expect(sqliteHasFts5()).toBe(true);
  });

  it("tells SQLite's missing FTS5 as the Node's, with the fix; any other error is not its business", () => {
    const error = fts5MissingError(new Error("no such module: fts5"));
    expect(error?.code).toBe("UNSUPPORTED_RUNTIME");
    expect(error?.message).toContain("no FTS5 full-text search");
    expect(error?.hint).toContain("22.16");
    expect(fts5MissingError(new Error("database disk image is malformed"))).toBeNull();
    expect(fts5MissingError("no such module: fts5")).toBeNull();
  });
});
