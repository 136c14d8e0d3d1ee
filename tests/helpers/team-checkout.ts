// A git checkout with a remote, and real Claude Code sessions (tests/fixtures/claude) moved into it: their `cwd`
// rewritten to the checkout, as if they had run there, so `ctx team share` in the checkout covers them. Team tests
// that push use it; a test that needs a session changed on the way (a NUL planted, a secret) passes a transform.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where the spotter fixtures (FIXTURE.short, toolHeavy, subagent) ran. */
export const SPOTTER_CWD = "/home/marco/projects/spotter";

/** Changes one session's text before it is written; `file` is the fixture it came from, `id` its session id. */
export type SessionTransform = (text: string, session: { file: string; id: string }) => string;

export interface TeamCheckout {
  /** The checkout, `<base>/<name>`. */
  repo: string;
  /** `<base>/claude`, the Claude Code folder. */
  claudeDir: string;
  /** The sessions' project folder, `<claudeDir>/projects/-<name>`. */
  folder: string;
  /** The sessions' ids, in the order of the files given. */
  ids: string[];
}

/** `git init` of `<base>/<name>` with `remote` as its origin; returns the checkout's path. */
export function createGitCheckout(base: string, name: string, remote: string): string {
  const repo = join(base, name);
  mkdirSync(repo, { recursive: true });
  execFileSync("git", ["init", "-q", repo]);
  execFileSync("git", ["-C", repo, "remote", "add", "origin", remote]);
  return repo;
}

/** Writes each fixture session into `folder` as `<id>.jsonl`, every cwd under `from` moved under `to`; their ids. */
export function copySessionsInto(
  folder: string,
  files: readonly string[],
  move: { from: string; to: string; transform?: SessionTransform },
): string[] {
  mkdirSync(folder, { recursive: true });
  return files.map((file) => {
    const text = readFileSync(file, "utf8").replaceAll(`"cwd":"${move.from}`, `"cwd":"${move.to}`);
    const id = /"sessionId":"([^"]+)"/.exec(text)?.[1] as string;
    writeFileSync(
      join(folder, `${id}.jsonl`),
      move.transform === undefined ? text : move.transform(text, { file, id }),
    );
    return id;
  });
}

/** A checkout `<base>/<name>` whose origin is `remote`, with the spotter fixture `files` moved into it. */
export function createTeamCheckout(options: {
  base: string;
  name: string;
  remote: string;
  files: readonly string[];
  transform?: SessionTransform;
}): TeamCheckout {
  const repo = createGitCheckout(options.base, options.name, options.remote);
  const claudeDir = join(options.base, "claude");
  const folder = join(claudeDir, "projects", `-${options.name}`);
  const ids = copySessionsInto(folder, options.files, {
    from: SPOTTER_CWD,
    to: repo,
    ...(options.transform === undefined ? {} : { transform: options.transform }),
  });
  return { repo, claudeDir, folder, ids };
}
