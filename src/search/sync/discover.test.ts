// discoverTranscripts over a real layout (the spotter fixtures as a project folder) and the odd things a
// ~/.claude/projects folder holds: stray files, symlinks, empty and unreadable folders, the summariser's transcripts.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE, LONG_SESSION } from "../../../tests/helpers/claude-projects.ts";
import { discoverSession, discoverTranscripts, isSubagentTranscript } from "./discover.ts";

const LONG_ID = LONG_SESSION;
const dirs: string[] = [];

function claudeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "discover-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("discoverTranscripts", () => {
  it("lists main transcripts and subagents under their parent session, never agent-acompact", async () => {
    const root = claudeDir();
    const project = join(root, "projects", "-home-USER-projects-spotter");
    // The spotter sessions of tests/fixtures/claude's two spotter folders, in one project.
    cpSync(dirname(FIXTURE.long), project, { recursive: true });
    cpSync(dirname(FIXTURE.short), project, { recursive: true });
    const found = await discoverTranscripts(root);
    expect(found.map((file) => [file.sessionId, file.kind, file.path.slice(project.length + 1)])).toEqual([
      [basename(FIXTURE.subagent, ".jsonl"), "main", basename(FIXTURE.subagent)],
      [LONG_ID, "main", `${LONG_ID}.jsonl`],
      [LONG_ID, "subagent", `${LONG_ID}/subagents/agent-a2898e3.jsonl`],
      [basename(FIXTURE.short, ".jsonl"), "main", basename(FIXTURE.short)],
      [basename(FIXTURE.toolHeavy, ".jsonl"), "main", basename(FIXTURE.toolHeavy)],
    ]);
    expect(found.some((file) => file.path.includes("acompact"))).toBe(false);
    const long = found.find((file) => file.kind === "main" && file.sessionId === LONG_ID);
    expect(long).toMatchObject({ project: "-home-USER-projects-spotter", size: 3_158_801 });
    expect(long?.mtimeMs).toBeGreaterThan(0);
  });

  it("reports size and mtime, and passes over stray files, symlinks and folders that are not sessions", async () => {
    const root = claudeDir();
    const project = join(root, "projects", "-work-app");
    mkdirSync(join(project, "s1", "subagents"), { recursive: true });
    mkdirSync(join(project, "s1", "tool-results"), { recursive: true });
    writeFileSync(join(project, "s1.jsonl"), "{}\n");
    utimesSync(join(project, "s1.jsonl"), new Date(1_700_000_000_000), new Date(1_700_000_000_000));
    writeFileSync(join(project, "s1", "subagents", "agent-b7.jsonl"), "{}\n{}\n");
    writeFileSync(join(project, "s1", "subagents", "agent-acompact-99.jsonl"), "{}\n");
    writeFileSync(join(project, "s1", "subagents", "notes.txt"), "x");
    writeFileSync(join(project, "s1", "tool-results", "big.jsonl"), "{}\n");
    writeFileSync(join(project, "agent-acompact-1.jsonl"), "{}\n");
    writeFileSync(join(project, "README.md"), "x");
    writeFileSync(join(project, ".jsonl"), "x");
    symlinkSync(join(project, "s1.jsonl"), join(project, "linked.jsonl"));
    symlinkSync(project, join(root, "projects", "linked-project"));
    writeFileSync(join(root, "projects", "not-a-folder.jsonl"), "{}\n");
    mkdirSync(join(root, "projects", "empty"));
    const found = await discoverTranscripts(root);
    expect(found).toEqual([
      {
        path: join(project, "s1.jsonl"),
        sessionId: "s1",
        project: "-work-app",
        kind: "main",
        size: 3,
        mtimeMs: 1_700_000_000_000,
      },
      {
        path: join(project, "s1", "subagents", "agent-b7.jsonl"),
        sessionId: "s1",
        project: "-work-app",
        kind: "subagent",
        size: 6,
        mtimeMs: expect.any(Number),
      },
    ]);
  });

  it("gives [] for a missing folder and skips an unreadable project", async () => {
    expect(await discoverTranscripts(join(claudeDir(), "nowhere"))).toEqual([]);
    const root = claudeDir();
    const locked = join(root, "projects", "locked");
    mkdirSync(locked, { recursive: true });
    writeFileSync(join(locked, "s.jsonl"), "{}\n");
    mkdirSync(join(root, "projects", "open"));
    writeFileSync(join(root, "projects", "open", "t.jsonl"), "{}\n");
    chmodSync(locked, 0o000);
    try {
      const found = await discoverTranscripts(root);
      const ids = found.map((file) => file.sessionId);
      expect(ids).toContain("t");
      // root ignores permissions; everyone else must not see inside the locked folder.
      if (process.getuid?.() !== 0) expect(ids).not.toContain("s");
    } finally {
      chmodSync(locked, 0o700);
    }
  });
});

describe("discoverSession", () => {
  it("finds one session's main file and subagents as the whole discovery lists them, also from a relative folder", async () => {
    const root = claudeDir();
    const project = join(root, "projects", "-home-USER-projects-spotter");
    cpSync(dirname(FIXTURE.long), project, { recursive: true });
    const whole = await discoverTranscripts(root);
    const main = join(project, `${LONG_ID}.jsonl`);
    expect(discoverSession(root, main)).toEqual(whole.filter((file) => file.sessionId === LONG_ID));
    expect(discoverSession(root, main).map((file) => file.kind)).toEqual(["main", "subagent"]);
    const relativeRoot = relative(process.cwd(), root);
    expect(discoverSession(relativeRoot, main).map((file) => file.path)).toEqual(
      (await discoverTranscripts(relativeRoot)).filter((file) => file.sessionId === LONG_ID).map((file) => file.path),
    );
  });

  it("refuses what is not a session's main transcript directly in a project folder", () => {
    const root = claudeDir();
    const project = join(root, "projects", "-work-app");
    mkdirSync(join(project, "s1", "subagents"), { recursive: true });
    writeFileSync(join(project, "s1.jsonl"), "{}\n");
    writeFileSync(join(project, "s1", "subagents", "agent-b7.jsonl"), "{}\n");
    writeFileSync(join(project, "agent-acompact-1.jsonl"), "{}\n");
    writeFileSync(join(root, "projects", "top.jsonl"), "{}\n");
    writeFileSync(join(root, "elsewhere.jsonl"), "{}\n");
    symlinkSync(join(project, "s1.jsonl"), join(project, "linked.jsonl"));
    symlinkSync(project, join(root, "projects", "linked-project"));
    const refused = [
      join(project, "s1", "subagents", "agent-b7.jsonl"),
      join(project, "agent-acompact-1.jsonl"),
      join(project, "gone.jsonl"),
      join(project, "linked.jsonl"),
      join(root, "projects", "linked-project", "s1.jsonl"),
      join(root, "projects", "top.jsonl"),
      join(root, "elsewhere.jsonl"),
      join(root, "projects", "..", "elsewhere.jsonl"),
      join(project, "s1"),
    ];
    for (const path of refused) expect(() => discoverSession(root, path), path).toThrow(/not a transcript/);
    expect(discoverSession(root, join(root, "projects", "-work-app", ".", "s1.jsonl")).length).toBe(2);
  });
});

describe("isSubagentTranscript", () => {
  it("accepts agent-<id>.jsonl and refuses the compaction summariser and other names", () => {
    expect(isSubagentTranscript("agent-a2898e3.jsonl")).toBe(true);
    expect(isSubagentTranscript("agent-acompact-e1f845.jsonl")).toBe(false);
    expect(isSubagentTranscript("agent-a2898e3.json")).toBe(false);
    expect(isSubagentTranscript("notes.jsonl")).toBe(false);
  });
});
