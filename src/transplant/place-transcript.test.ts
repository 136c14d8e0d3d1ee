import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../tests/helpers/ctx-error.ts";
import { claudeProjectDirName } from "../config/claude-paths.ts";
import { placeTranscript, type TranscriptPlacement } from "./place-transcript.ts";

const ID = "11111111-2222-4333-8444-555555555555";
const THEIRS = "/home/al/app";

/** Another machine's transcript: its project folder is a monorepo package, and one cwd lies outside the checkout. */
function transcript(extra = ""): Buffer {
  const lines = [
    { type: "user", cwd: `${THEIRS}/packages/web`, message: { role: "user", content: `fix it${extra}` } },
    { type: "user", cwd: `${THEIRS}/packages/web`, toolUseResult: { cwd: `${THEIRS}/packages/api` } },
    { type: "user", cwd: "/tmp/elsewhere" },
  ];
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
}

describe("a transcript from another machine placed in Claude Code's folder for this checkout", () => {
  let base: string;
  let checkout: string;
  let placement: TranscriptPlacement;
  const projects = () => join(base, "claude", "projects");

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-place-")));
    checkout = join(base, "bob", "app-clone");
    mkdirSync(join(checkout, "packages", "web"), { recursive: true });
    placement = {
      sessionId: ID,
      text: transcript(),
      checkoutRoot: checkout,
      repoPath: "packages/web",
      conflictHint: "the caller's own words",
      env: { HOME: base, CLAUDE_CONFIG_DIR: join(base, "claude") },
      now: new Date("2025-01-02T03:04:05Z"),
    };
  });

  it("moves the cwd fields into the checkout, writes once and leaves an identical copy alone", async () => {
    const folder = join(checkout, "packages", "web");
    const placed = await placeTranscript(placement);
    const path = join(projects(), claudeProjectDirName(folder), `${ID}.jsonl`);
    expect(placed).toEqual({ path, written: true, cwd: folder, from: THEIRS, to: checkout, rewrittenFields: 3 });
    const lines = readFileSync(path, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.cwd)).toEqual([folder, folder, "/tmp/elsewhere"]);
    expect(lines[1].toolUseResult.cwd).toBe(join(checkout, "packages", "api"));
    expect((await placeTranscript(placement)).written).toBe(false);
  });

  it("never replaces a different transcript of the session, and says so with the caller's hint", async () => {
    const { path } = await placeTranscript(placement);
    const before = readFileSync(path);
    const error = await rejectedCtxError(placeTranscript({ ...placement, text: transcript(" again") }));
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toBe(`a different transcript of session ${ID} is already at ${path}`);
    expect(error.hint).toBe("the caller's own words");
    expect(readFileSync(path)).toEqual(before);
  });

  it("refuses a project folder that a link in the checkout leads out of it, writing nothing", async () => {
    const outside = join(base, "outside");
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(checkout, "linked"));
    const error = await rejectedCtxError(placeTranscript({ ...placement, repoPath: "linked" }));
    expect(error.code).toBe("UNSAFE_PATH");
    expect(existsSync(projects())).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("refuses an id that is not a Claude Code session id before anything is written", async () => {
    for (const sessionId of ["../../escape", "a/b", ""]) {
      const error = await rejectedCtxError(placeTranscript({ ...placement, sessionId }));
      expect(error.code).toBe("USAGE");
      expect(error.message).toContain("is not a Claude Code session id");
    }
    expect(existsSync(projects())).toBe(false);
    expect(readdirSync(base)).not.toContain("escape.jsonl");
  });
});
