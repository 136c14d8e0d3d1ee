import { describe, expect, it } from "vitest";
import { detectMemoryType, parseMarkerNames } from "./memory-markers.ts";

describe("detectMemoryType", () => {
  it.each([
    "The fix was to close the file handle before renaming.",
    "Assistant: That worked! The server starts now.",
    "All 397 tests pass and no new credo issues.",
    "All 15 tests pass. Now let me write the next file.",
    "Tests pass now after the change.",
    "It compiles cleanly.",
    "I fixed the bug in the parser.",
    "The root cause was a stale cache entry.",
    "Great, the issue is fixed.",
  ])("WORKING_SOLUTION: %s", (text) => {
    expect(detectMemoryType(text)).toBe("WORKING_SOLUTION");
  });

  it.each([
    "We always use pnpm in this repo.",
    "Please always run the tests before committing.",
    "Never commit directly to main.",
    "The naming convention here is kebab-case files.",
    "We use zod for schemas at every boundary.",
    "AshComputer is the existing pattern to follow for LiveViews.",
    "As a best practice, keep modules small.",
  ])("PATTERN: %s", (text) => {
    expect(detectMemoryType(text)).toBe("PATTERN");
  });

  it.each([
    "We are waiting for the design team to reply.",
    "This is blocked on the upstream release.",
    "The PR is pending review.",
    "Let's come back to this tomorrow.",
  ])("WAITING: %s", (text) => {
    expect(detectMemoryType(text)).toBe("WAITING");
  });

  it.each([
    "Let me make sure the tests pass before committing.",
    "Not all tests pass yet.",
    "Run the test suite and show me the output.",
    "Can you look at the regex pattern in the Grep call?",
    "We used a convention-less layout before.",
    "I will wait for it to finish compiling.",
    "Let me check the project structure and try running the server.",
    "",
  ])("nothing: %s", (text) => {
    expect(detectMemoryType(text)).toBeNull();
  });

  it("prefers WORKING_SOLUTION over PATTERN over WAITING, and ignores code blocks", () => {
    expect(detectMemoryType("We always use pnpm. Blocked on CI. The fix was the lockfile.")).toBe("WORKING_SOLUTION");
    expect(detectMemoryType("Blocked on review, but we always use squash merges.")).toBe("PATTERN");
    expect(detectMemoryType("```\n// the fix was here\n```\nplain text")).toBeNull();
    expect(detectMemoryType("THE FIX WAS a missing await")).toBe("WORKING_SOLUTION");
  });
});

describe("parseMarkerNames", () => {
  it("reads the names people type, comma-separated or repeated, in any case; null for an unknown one", () => {
    expect(parseMarkerNames(["working-solution"])).toEqual(["WORKING_SOLUTION"]);
    expect(parseMarkerNames(["pattern,WAITING", "working_solution", "pattern"])).toEqual([
      "PATTERN",
      "WAITING",
      "WORKING_SOLUTION",
    ]);
    expect(parseMarkerNames(["solution"])).toBeNull();
  });
});
