// Lays out the real fixture transcripts as a Claude Code user folder (<dir>/projects/<project>/<session>.jsonl,
// subagents under <session>/subagents/), for session index tests.
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/transcripts/", import.meta.url));

export const SPOTTER_PROJECT = "-home-dev-spotter";
export const VIEWER_PROJECT = "-home-dev-claude-code-viewer";
export const LONG_SESSION = "4d5611e5-241a-462a-8d15-5122611a9569";

/** Copies the fixtures into `<root>/claude/projects/…`; returns the Claude dir. `withLong: false` leaves out the 3 MB session. */
export function layOutClaudeDir(root: string, options: { withLong?: boolean } = {}): string {
  const claudeDir = join(root, "claude");
  const spotter = join(claudeDir, "projects", SPOTTER_PROJECT);
  const viewer = join(claudeDir, "projects", VIEWER_PROJECT);
  mkdirSync(spotter, { recursive: true });
  mkdirSync(viewer, { recursive: true });
  for (const name of ["short", "tool_heavy", "subagent"]) {
    cpSync(join(FIXTURES, "spotter", `${name}.jsonl`), join(spotter, `${name}.jsonl`));
  }
  if (options.withLong !== false) {
    cpSync(join(FIXTURES, "spotter", `${LONG_SESSION}.jsonl`), join(spotter, `${LONG_SESSION}.jsonl`));
    cpSync(join(FIXTURES, "spotter", LONG_SESSION), join(spotter, LONG_SESSION), { recursive: true });
  }
  for (const id of [
    "1af7fc5e-8455-4414-9ccd-011d40f70b2a",
    "5c0375b4-57a5-4f26-b12d-d022ee4e51b7",
    "fe5e1c67-53e7-4862-81ae-d0e013e3270b",
  ]) {
    cpSync(join(FIXTURES, "claude-code-viewer", `${id}.jsonl`), join(viewer, `${id}.jsonl`));
  }
  return claudeDir;
}

export function fixturePath(...parts: string[]): string {
  return join(FIXTURES, ...parts);
}
