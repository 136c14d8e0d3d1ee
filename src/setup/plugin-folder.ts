// `pnpm build`'s plugin folder (build/plugin-folder.ts runs it): `plugin/`, the Claude Code plugin that the repository's
// marketplace lists (src/core/setup/plugin-files.ts says why it is a folder of its own). Claude Code runs a local
// marketplace's plugin from this folder (2.1.330) and copies it into its cache on install, so the folder holds what
// runs: the built program and its runtime packages, which `pnpm deploy --prod --offline` copies from the store that
// `pnpm install` filled (no network, no dev packages), then the manifest, hooks/hooks.json and the slash commands
// rendered from the hook table.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { realpath, rename, rm } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { PLUGIN_FOLDER, renderPluginFiles } from "../core/setup/plugin-files.ts";
import { assertOwnFolderOrAbsent } from "../store/files/safe-path.ts";
import { readPluginMeta } from "./plugin-files-write.ts";
import { writeRepositoryFiles } from "./repository-files.ts";

export interface Command {
  command: string;
  args: string[];
}

/** The pnpm that runs this build (`npm_execpath`, a script Node runs, or a binary), else pnpm from PATH. */
export function pnpmCommand(env: NodeJS.ProcessEnv, nodePath: string): Command {
  const execPath = env.npm_execpath;
  if (execPath === undefined || !basename(execPath).startsWith("pnpm")) return { command: "pnpm", args: [] };
  return /\.[cm]?js$/.test(execPath) ? { command: nodePath, args: [execPath] } : { command: execPath, args: [] };
}

/** The arguments of the deploy that copies the package's files and its production dependencies into `folder`. */
export function deployArgs(packageName: string, folder: string): string[] {
  // inject-workspace-packages: pnpm 10 then deploys from the lockfile, as `pnpm install --frozen-lockfile` installed
  // it; the legacy deploy resolves every dependency again and needs the registry's metadata, which a fresh machine's
  // frozen install never fetched.
  return [
    "deploy",
    `--filter=${packageName}`,
    "--prod",
    "--offline",
    "--config.inject-workspace-packages=true",
    folder,
  ];
}

/**
 * Rewrites `<repoRoot>/plugin` from the current build, its commands running `node` (the build's own Node: see
 * pluginCommand); returns the rendered files' paths.
 */
export async function writePluginFolder(repoRoot: string, pnpm: Command, node: string): Promise<string[]> {
  // Built beside it, then swapped in with two renames: plugin/ is never a folder half deployed, and a failed deploy
  // leaves the last build as it was. A session already running keeps processes of the last build that load files of
  // their own build later (chunks, worker threads), so the README says to restart Claude Code after a rebuild.
  const next = `${PLUGIN_FOLDER}.next`;
  const old = `${PLUGIN_FOLDER}.old`;
  // The three names as they are in the repository, never a link's target: removing or renaming through a link (even
  // one that stays inside the repository, such as a committed `plugin.old -> docs`) would act on another folder.
  const root = await realpath(repoRoot);
  const [folder, nextFolder, oldFolder] = [PLUGIN_FOLDER, next, old].map((name) => join(root, name)) as [
    string,
    string,
    string,
  ];
  for (const path of [folder, nextFolder, oldFolder]) await assertOwnFolderOrAbsent(path, relative(root, path));
  const meta = await readPluginMeta(repoRoot);
  await rm(nextFolder, { recursive: true, force: true });
  await rm(oldFolder, { recursive: true, force: true });
  const deploy = spawnSync(pnpm.command, [...pnpm.args, ...deployArgs(meta.name, nextFolder)], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (deploy.error !== undefined || deploy.status !== 0) {
    await rm(nextFolder, { recursive: true, force: true });
    const why = deploy.error?.message ?? `exit ${deploy.status}`;
    throw new Error(
      `pnpm deploy into ${PLUGIN_FOLDER}/ failed (${why}):\n${deploy.stdout ?? ""}${deploy.stderr ?? ""}`,
    );
  }
  const files = renderPluginFiles(meta, node);
  await writeRepositoryFiles(
    repoRoot,
    Object.fromEntries(
      Object.entries(files).map(([path, content]) => [`${next}${path.slice(PLUGIN_FOLDER.length)}`, content]),
    ),
  );
  if (existsSync(folder)) await rename(folder, oldFolder);
  await rename(nextFolder, folder);
  await rm(oldFolder, { recursive: true, force: true });
  return Object.keys(files);
}
