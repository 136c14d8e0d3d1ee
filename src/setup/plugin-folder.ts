// `pnpm build`'s plugin folder (build/plugin-folder.ts runs it): `plugin/`, the Claude Code plugin that the repository's
// marketplace lists (src/core/setup/plugin-files.ts says why it is a folder of its own). Claude Code runs a local
// marketplace's plugin from this folder (2.1.330) and copies it into its cache on install, so the folder holds what
// runs: the built program and its runtime packages, which `pnpm deploy --prod --offline` copies from the store that
// `pnpm install` filled (no network, no dev packages), then the manifest, hooks/hooks.json and the slash commands
// rendered from the hook table.
import { spawnSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { basename } from "node:path";
import { PLUGIN_FOLDER, renderPluginFiles } from "../core/setup/plugin-files.ts";
import { assertAllInside } from "../store/files/contained-path.ts";
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

/** Rewrites `<repoRoot>/plugin` from the current build; returns the rendered files' paths. */
export async function writePluginFolder(repoRoot: string, pnpm: Command): Promise<string[]> {
  const [folder] = await assertAllInside(repoRoot, [PLUGIN_FOLDER], { label: "the repository" });
  const meta = await readPluginMeta(repoRoot);
  await rm(folder as string, { recursive: true, force: true });
  const deploy = spawnSync(pnpm.command, [...pnpm.args, ...deployArgs(meta.name, folder as string)], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (deploy.error !== undefined || deploy.status !== 0) {
    const why = deploy.error?.message ?? `exit ${deploy.status}`;
    throw new Error(
      `pnpm deploy into ${PLUGIN_FOLDER}/ failed (${why}):\n${deploy.stdout ?? ""}${deploy.stderr ?? ""}`,
    );
  }
  return writeRepositoryFiles(repoRoot, renderPluginFiles(meta));
}
