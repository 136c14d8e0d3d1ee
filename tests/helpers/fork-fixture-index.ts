// A real session index of forks Claude Code 2.1.330 made, for the ui's pages: tests/fixtures/forks (a source and a
// fork that paid off, in -home-user-work-project) and tests/fixtures/claude-forks (an original and two forks, in
// -tmp-ctx-e2e-project), synced by the real sync into `<root>/.ctx`. Extra project folders hold a copy of the fork.
import { copyFileSync, cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { resolveIndexPath } from "../../src/search/paths.ts";
import { syncIndex } from "../../src/search/sync/sync-index.ts";

export const FORK_SOURCE = "d2e2675e-9085-415a-b095-cefa3b4cb8f2";
export const FORK = "41bc45fa-0233-4d74-bf70-2109cda90960";
export const E2E_ORIGINAL = "666429a8-b8f3-4dbd-9bd3-3605cc7db959";

/** Builds the index under `root`; returns the env that points at it. */
export async function buildForkFixtureIndex(
  root: string,
  extraProjects: Array<{ folder: string; sessionId: string }> = [],
): Promise<NodeJS.ProcessEnv> {
  const env = { CTX_HOME: join(root, ".ctx"), HOME: root };
  const projects = join(root, "claude", "projects");
  const forks = new URL("../fixtures/forks/", import.meta.url);
  const work = join(projects, "-home-user-work-project");
  mkdirSync(work, { recursive: true });
  copyFileSync(new URL("source.jsonl", forks), join(work, `${FORK_SOURCE}.jsonl`));
  copyFileSync(new URL("fork.jsonl", forks), join(work, `${FORK}.jsonl`));
  cpSync(new URL("../fixtures/claude-forks/projects/", import.meta.url), projects, { recursive: true });
  for (const extra of extraProjects) {
    mkdirSync(join(projects, extra.folder), { recursive: true });
    copyFileSync(new URL("fork.jsonl", forks), join(projects, extra.folder, `${extra.sessionId}.jsonl`));
  }
  mkdirSync(env.CTX_HOME, { recursive: true, mode: 0o700 });
  await syncIndex({ claudeDir: join(root, "claude"), dbPath: resolveIndexPath(env) });
  return env;
}
