// The project's `.ctx/` folder, made on first write. Hooks run in projects where `ctx init` never ran
// (plugin installs), so the folder ignores itself for git (`.ctx/.gitignore` = `*`), and a project
// folder that does not exist is an error rather than something to create.
import { existsSync } from "node:fs";
import { lstat, mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { CtxError } from "../../errors.ts";
import { assertNoLinkInCtxPath } from "./safe-path.ts";

export async function ensureProjectCtxDir(projectRoot: string): Promise<string> {
  const root = await stat(projectRoot).catch(() => null);
  if (!root?.isDirectory()) {
    throw new CtxError("NOT_FOUND", `project folder ${projectRoot} does not exist or is not a folder`, {
      hint: "run ctx from inside the project, or pass --project <dir>",
    });
  }
  const { ctxDir } = projectPaths(projectRoot);
  try {
    await mkdir(ctxDir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    assertNoLinkInCtxPath(ctxDir);
    const existing = await lstat(ctxDir);
    if (!existing.isDirectory()) {
      throw new CtxError("STATE_CORRUPT", `${ctxDir} exists but is not a folder`, {
        hint: "another tool may have made it; rename or remove it so ctx can keep its state there",
      });
    }
  }
  const ignore = join(ctxDir, ".gitignore");
  if (!existsSync(ignore))
    await writeFile(ignore, "# ctx state: never committed\n*\n", { mode: 0o600 }).catch(() => {});
  return ctxDir;
}
