// Reads what `ctx status` reports from a project's `.ctx/`. A file that fails to verify becomes a
// warning in the status, never a crash: status is how a person finds out something is wrong.
import { existsSync } from "node:fs";
import type { SessionsFile } from "../core/sessions.ts";
import { buildStatus, type Status } from "../core/status.ts";
import { describeError } from "../errors.ts";
import { projectPaths } from "./paths.ts";
import { readSessionsSeen } from "./sessions-seen.ts";

export async function collectProjectStatus(projectRoot: string, version: string, recent?: number): Promise<Status> {
  const paths = projectPaths(projectRoot);
  const warnings: string[] = [];
  let sessions: SessionsFile | null = null;
  try {
    sessions = await readSessionsSeen(projectRoot);
  } catch (error) {
    warnings.push(describeError(error));
  }
  return buildStatus({
    version,
    root: paths.root,
    ctxDir: paths.ctxDir,
    initialized: existsSync(paths.ctxDir),
    sessions,
    warnings,
    ...(recent === undefined ? {} : { recent }),
  });
}
