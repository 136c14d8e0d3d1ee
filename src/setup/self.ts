// Facts about the running ctx program that init and doctor need: its own entry file, the node binary,
// the platform. Read here, once, so the pure logic in src/core receives them as data (and tests can fake them).
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface SelfInfo {
  /** Absolute path of this package's dist/ctx.js (the real path when it exists). */
  entry: string;
  /** The node binary running ctx now. */
  execPath: string;
  nodeVersion: string;
  platform: NodeJS.Platform;
}

const PACKAGE_NAME = "claude-ctx";

/**
 * This program as installed: the package root is found from this module's own location (in the bundle,
 * dist/; from source, src/setup/), which is what `ctx` on PATH links to after `npm install -g`.
 */
export function describeSelf(): SelfInfo {
  const root = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
  const entry = join(root ?? process.cwd(), "dist", "ctx.js");
  return {
    entry: realPathOr(entry),
    execPath: process.execPath,
    nodeVersion: process.versions.node,
    platform: process.platform,
  };
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
