import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  guardDir,
  guardFileStem,
  guardStatePath,
  pruneGuardFiles,
  readGuardState,
  readNewestGuardState,
  writeGuardFile,
} from "./guard-store.ts";

function project(withCtx = true): string {
  const root = join(mkdtempSync(join(tmpdir(), "ctx-guard-store-")), "repo");
  mkdirSync(withCtx ? join(root, ".ctx") : root, { recursive: true });
  return root;
}

describe("guard store", () => {
  it("writes nothing where ctx is not set up", () => {
    const root = project(false);
    expect(writeGuardFile(root, join(root, "x.json"), {})).toBe(false);
    expect(readNewestGuardState(root)).toBeNull();
  });

  it("file names are safe whatever the session id", () => {
    expect(guardFileStem("0b1c2d3e-0000-4000-8000-000000000001")).toBe("0b1c2d3e-0000-4000-8000-000000000001");
    expect(guardFileStem("../../etc/passwd")).toBe("______etc_passwd");
    expect(guardFileStem("")).toBe("_");
  });

  it("a damaged or foreign file is no state", () => {
    const root = project();
    mkdirSync(guardDir(root));
    writeFileSync(guardStatePath(root, "s1"), "{not json");
    expect(readGuardState(root, "s1")).toBeNull();
    writeFileSync(guardStatePath(root, "s2"), JSON.stringify({ version: 1, sessionId: "other" }));
    expect(readGuardState(root, "s2")).toBeNull();
    expect(readNewestGuardState(root)).toBeNull();
  });

  it("opens only a regular file: a FIFO in a guard file's place is no state and never blocks the hook", () => {
    const root = project();
    mkdirSync(guardDir(root));
    execFileSync("mkfifo", [guardStatePath(root, "s1")]);
    expect(readGuardState(root, "s1")).toBeNull();
    mkdirSync(guardStatePath(root, "s2"));
    expect(readGuardState(root, "s2")).toBeNull();
  });

  it("keeps the files of the newest sessions only (a session's tick handoff with them)", () => {
    const root = project();
    mkdirSync(guardDir(root));
    for (let i = 0; i < 5; i++) {
      for (const suffix of i === 4 ? [".json", ".statusline.json", ".tick.json"] : [".json", ".statusline.json"]) {
        const path = join(guardDir(root), `s${i}${suffix}`);
        writeFileSync(path, "{}");
        utimesSync(path, 1_000 + i, 1_000 + i);
      }
    }
    expect(pruneGuardFiles(root, 2).sort()).toEqual(
      ["s0.json", "s0.statusline.json", "s1.json", "s1.statusline.json", "s2.json", "s2.statusline.json"].sort(),
    );
    expect(readdirSync(guardDir(root)).sort()).toEqual([
      "s3.json",
      "s3.statusline.json",
      "s4.json",
      "s4.statusline.json",
      "s4.tick.json",
    ]);
  });
});
