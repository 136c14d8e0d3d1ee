// Facts about the running ctx program that init and doctor need: its own entry file, the node binary,
// the platform. Read here, once, so the pure logic in src/core receives them as data (and tests can fake them).
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { detectInstallKind, type InstallKind, onPathFix } from "../core/setup/install-method.ts";
import { CTX_VERSION } from "../version.ts";

export interface SelfInfo {
  /** Absolute path of this package's dist/ctx.js (the real path when it exists). */
  entry: string;
  /** The node binary running ctx now. */
  execPath: string;
  nodeVersion: string;
  platform: NodeJS.Platform;
  /** How this ctx was installed, and the command that puts it on PATH (for doctor's and init's fixes). */
  install?: { kind: InstallKind; onPathFix: string };
}

const PACKAGE_NAME = "claude-ctx";

/**
 * This program as installed: the package root is found from this module's own location (in the bundle,
 * dist/; from source, src/setup/), which is what `ctx` on PATH links to after `npm install -g`.
 */
export function describeSelf(env: NodeJS.ProcessEnv = process.env): SelfInfo {
  const root = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
  const entry = realPathOr(join(root ?? process.cwd(), "dist", "ctx.js"));
  const facts = {
    entry,
    packageRoot: root,
    checkout: root !== null && existsSync(join(root, ".git")) && existsSync(join(root, "src")),
    version: root === null ? CTX_VERSION : packageVersion(root),
    pluginRoot: env.CLAUDE_PLUGIN_ROOT,
  };
  return {
    install: { kind: detectInstallKind(facts), onPathFix: onPathFix(facts) },
    entry,
    execPath: process.execPath,
    nodeVersion: process.versions.node,
    platform: process.platform,
  };
}

/** The version in the package's own package.json (npm pack names the tarball after it). */
function packageVersion(root: string): string {
  try {
    const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown }).version;
    return typeof version === "string" ? version : CTX_VERSION;
  } catch {
    return CTX_VERSION;
  }
}

function findPackageRoot(start: string): string | null {
  let dir = start;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // Not ours or unreadable: keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
