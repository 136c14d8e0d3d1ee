import { describe, expect, it } from "vitest";
import { type BundleManifest, DEFAULT_BUNDLE_LIMITS, entryNameProblem, manifestProblem } from "./bundle-manifest.ts";

const ID = "0b6f4a52-9d0e-4c52-a1c9-3f1f9a6f0c11";
const SHA = "a".repeat(64);

function manifest(files: string[], id = ID): BundleManifest {
  return {
    format: "ctx-session-bundle",
    version: 1,
    createdAt: "2026-12-01T00:00:00Z",
    ctxVersion: "test",
    redacted: true,
    sessions: [
      {
        id,
        title: "t",
        project: { remoteUrl: "github.com/acme/app", repoPath: "" },
        branch: null,
        startedAt: null,
        endedAt: null,
        messageCount: 1,
        lineage: { parents: [], forks: [] },
        files: files.map((path) => ({ path, bytes: 1, sha256: SHA })),
      },
    ],
  };
}

describe("entryNameProblem", () => {
  it("takes the transcript and its subagents' files only", () => {
    expect(entryNameProblem(`${ID}.jsonl`, ID)).toBeNull();
    expect(entryNameProblem(`${ID}/subagents/agent-a2898e3.jsonl`, ID)).toBeNull();
    for (const name of [
      `${ID}/subagents/.hidden.jsonl`,
      `${ID}/subagents/a.txt`,
      `${ID}/other/a.jsonl`,
      `${ID}/subagents/a/b.jsonl`,
      `${ID}//subagents/a.jsonl`,
      `./${ID}.jsonl`,
      `${ID}.jsonl\u0000`,
    ]) {
      expect(entryNameProblem(name, ID), name).not.toBeNull();
    }
  });
});

describe("manifestProblem", () => {
  it("wants the transcript first, no duplicates, and counts within the limits", () => {
    expect(manifestProblem(manifest([`${ID}.jsonl`]), DEFAULT_BUNDLE_LIMITS)).toBeNull();
    expect(manifestProblem(manifest([`${ID}/subagents/a.jsonl`]), DEFAULT_BUNDLE_LIMITS)).toMatch(
      /start with its transcript/,
    );
    expect(manifestProblem(manifest([`${ID}.jsonl`, `${ID}.jsonl`]), DEFAULT_BUNDLE_LIMITS)).toMatch(/twice/);
    expect(manifestProblem(manifest([`${ID}.jsonl`]), { ...DEFAULT_BUNDLE_LIMITS, sessions: 0 })).toMatch(/1 sessions/);
    expect(manifestProblem(manifest([`${ID}.jsonl`], "not-a-uuid"), DEFAULT_BUNDLE_LIMITS)).toMatch(/session id/);
    expect(manifestProblem({ ...manifest([]), sessions: [] }, DEFAULT_BUNDLE_LIMITS)).toMatch(/no session/);
  });
});
