// The real fixture transcripts, which tests/fixtures/claude/ holds in Claude Code's own layout
// (projects/<folder of cwd>/<session-id>.jsonl, subagents under <session-id>/subagents/): their paths, and
// `layOutClaudeDir`, which copies them into a test's own Claude folder under short names for session index tests.
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** tests/fixtures/claude: a Claude Code user folder (`ctx index --claude-dir tests/fixtures/claude` reads it). */
export const FIXTURE_CLAUDE_DIR = fileURLToPath(new URL("../fixtures/claude", import.meta.url));
const PROJECTS = join(FIXTURE_CLAUDE_DIR, "projects");

export const LONG_SESSION = "4d5611e5-241a-462a-8d15-5122611a9569";

/** Each fixture session's file. */
export const FIXTURE = {
  /** spotter, Claude Code 2.1.38: one prompt, one reply in five block lines. */
  short: join(PROJECTS, "-home-marco-projects-spotter", "55604662-cf2a-4331-851a-ec234028f8ca.jsonl"),
  toolHeavy: join(PROJECTS, "-home-marco-projects-spotter", "d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl"),
  subagent: join(PROJECTS, "-home-marco-projects-spotter", "491e126e-1e71-469c-ade2-fcc8af567c74.jsonl"),
  /** spotter, 1,512 lines (3 MB) with a compaction, and two subagent transcripts. */
  long: join(PROJECTS, "-home-USER-projects-spotter-worktrees-spotter-dov", `${LONG_SESSION}.jsonl`),
  longSubagents: join(PROJECTS, "-home-USER-projects-spotter-worktrees-spotter-dov", LONG_SESSION, "subagents"),
  /** claude-code-viewer, Claude Code 1.0.98 and 1.0.108. */
  viewer: (id: string) => join(PROJECTS, "-path-to-Demo", `${id}.jsonl`),
} as const;

export const VIEWER_SESSIONS = [
  "1af7fc5e-8455-4414-9ccd-011d40f70b2a",
  "5c0375b4-57a5-4f26-b12d-d022ee4e51b7",
  "fe5e1c67-53e7-4862-81ae-d0e013e3270b",
] as const;

export const SPOTTER_PROJECT = "-home-dev-spotter";
export const VIEWER_PROJECT = "-home-dev-claude-code-viewer";

/**
 * Copies the fixtures into `<root>/claude/projects/…` as two projects, the spotter sessions under short names
 * (short, tool_heavy, subagent, and the long one by its id); returns the Claude dir. `withLong: false` leaves out the
 * 3 MB session.
 */
export function layOutClaudeDir(root: string, options: { withLong?: boolean } = {}): string {
  const claudeDir = join(root, "claude");
  const spotter = join(claudeDir, "projects", SPOTTER_PROJECT);
  const viewer = join(claudeDir, "projects", VIEWER_PROJECT);
  mkdirSync(spotter, { recursive: true });
  mkdirSync(viewer, { recursive: true });
  cpSync(FIXTURE.short, join(spotter, "short.jsonl"));
  cpSync(FIXTURE.toolHeavy, join(spotter, "tool_heavy.jsonl"));
  cpSync(FIXTURE.subagent, join(spotter, "subagent.jsonl"));
  if (options.withLong !== false) {
    cpSync(FIXTURE.long, join(spotter, `${LONG_SESSION}.jsonl`));
    cpSync(FIXTURE.longSubagents, join(spotter, LONG_SESSION, "subagents"), { recursive: true });
  }
  for (const id of VIEWER_SESSIONS) cpSync(FIXTURE.viewer(id), join(viewer, `${id}.jsonl`));
  return claudeDir;
}
