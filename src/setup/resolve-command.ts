// Finds `ctx` / `claude-ctx` on PATH and what they really run (symlink targets, or the script an npm/pnpm
// shim starts), then lets src/core choose the command ctx writes into Claude Code's settings.
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import {
  type CommandChoice,
  chooseCtxCommand,
  type PathLookup,
  parseShimTargets,
} from "../core/setup/init/command-choice.ts";
import { quoteShellWord } from "../core/shell/quote.ts";
import { realPathOr, type SelfInfo } from "./self.ts";

const SHIM_MAX_BYTES = 64 * 1024;

/** The first executable `name` on env.PATH, or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  const path = env.PATH ?? env.Path ?? "";
  const separator = platform === "win32" ? ";" : delimiter;
  const extensions = platform === "win32" ? ["", ...(env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";")] : [""];
  for (const dir of path.split(separator)) {
    if (dir === "") continue;
    for (const extension of extensions) {
      const candidate = join(dir, `${name}${extension.toLowerCase()}`);
      if (isExecutableFile(candidate, platform)) return candidate;
    }
  }
  return null;
}

export function lookupOnPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): PathLookup | null {
  const path = findOnPath(name, env, platform);
  if (path === null) return null;
  const real = realPathOr(path);
  const targets = [real];
  if (!/\.[cm]?js$/.test(real)) {
    // Not a symlink to a script: maybe a shim (pnpm on every platform, npm on Windows) naming the script.
    try {
      if (statSync(real).size <= SHIM_MAX_BYTES) {
        for (const target of parseShimTargets(readFileSync(real, "utf8"), dirname(path)))
          targets.push(realPathOr(target));
      }
    } catch {
      // Unreadable: only the path itself counts.
    }
  }
  return { path, targets };
}

export interface ResolvedCommand {
  choice: CommandChoice;
  ctxOnPath: PathLookup | null;
  claudeCtxOnPath: PathLookup | null;
  warnings: string[];
}

export function resolveCtxCommand(env: NodeJS.ProcessEnv, self: SelfInfo, override?: string): ResolvedCommand {
  const ctxOnPath = lookupOnPath("ctx", env, self.platform);
  const claudeCtxOnPath = lookupOnPath("claude-ctx", env, self.platform);
  const choice = chooseCtxCommand(
    { self: self.entry, distEntry: self.entry, execPath: self.execPath, ctxOnPath, claudeCtxOnPath },
    override,
  );
  const warnings: string[] = [];
  if (/[\\/](_npx|dlx)[\\/]|[\\/]dlx-[^\\/]+[\\/]/.test(self.entry) && override === undefined) {
    warnings.push(
      `ctx is running from a temporary npx/dlx copy (${self.entry}) that can disappear: ${self.install?.onPathFix ?? "install it with `npm install -g claude-ctx`"}, then run \`ctx init\` again`,
    );
  } else if (choice.reason.endsWith("using absolute paths")) {
    warnings.push(
      `the hooks and the MCP server use absolute paths of this machine; .mcp.json and .claude/settings.json are usually committed, so put ctx on PATH (${self.install?.onPathFix ?? `ln -sf ${quoteShellWord(self.entry)} ~/.local/bin/ctx`}) and run \`ctx init\` again`,
    );
  }
  return { choice, ctxOnPath, claudeCtxOnPath, warnings };
}

function isExecutableFile(path: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (platform !== "win32") accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
