// The local embedder's packages (@huggingface/transformers with onnxruntime, ~470 MB) for the tests that run the nomic
// code path for real. They are no dependency of ctx, not even a dev one: `ctx embed --setup` installs them for a user
// on request, and the suite installs them the same way (installTransformersPackage: npm into <CTX_HOME>/embedder/)
// into a machine-wide cache, once, before the tests start (tests/global-setup.ts). Tests in this process import them
// through vitest's alias (vitest.config.ts); a ctx process a test starts finds them through its CTX_HOME
// (`linkEmbedderPackages`). Unavailable: the tests that need them skip saying why, or under CI the run fails.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  embedderPackagesDir,
  installTransformersPackage,
  TRANSFORMERS_PACKAGE,
  TRANSFORMERS_VERSION,
} from "../../src/search/embedders/transformers-package.ts";
import { withLock } from "../../src/store/files/lock.ts";
import { isCi } from "./required-tool.ts";

/** The cache's own CTX_HOME: the packages are in its embedder/ folder, as `ctx embed --setup` lays them out. */
export function embedderCacheHome(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME || join(env.HOME ?? homedir(), ".cache");
  return join(cache, "ctx-test", `embedder-${TRANSFORMERS_VERSION}`);
}

/** The cache's import shim (`load.mjs`, as `ctx embed --setup` writes it): vitest.config.ts resolves the package from it. */
export function cachedShimPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(embedderPackagesDir({ CTX_HOME: embedderCacheHome(env) }), "load.mjs");
}

/** The cached package's folder. */
export function cachedTransformersDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(embedderPackagesDir({ CTX_HOME: embedderCacheHome(env) }), "node_modules", TRANSFORMERS_PACKAGE);
}

/** The installed version, counted only once the install finished: its shim is written last, after npm succeeded. */
function installedVersion(env: NodeJS.ProcessEnv): string | undefined {
  const manifest = join(cachedTransformersDir(env), "package.json");
  if (!existsSync(manifest) || !existsSync(cachedShimPath(env))) return undefined;
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version;
}

/** A failed install is not tried again for this long outside CI (an offline machine would wait on npm every run). */
const RETRY_AFTER_MS = 30 * 60_000;
/** How long a run waits for another run's install (the lock's holder keeps it fresh). */
const LOCK_WAIT_MS = 10 * 60_000;
const failureMarker = (env: NodeJS.ProcessEnv) => `${embedderCacheHome(env)}.failed`;

function recentFailure(env: NodeJS.ProcessEnv): string | null {
  try {
    const marker = failureMarker(env);
    if (Date.now() - statSync(marker).mtimeMs > RETRY_AFTER_MS) return null;
    return readFileSync(marker, "utf8");
  } catch {
    return null;
  }
}

/** Installs the packages into the cache unless they are there; why not, when they cannot be had. */
export async function ensureEmbedderPackages(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  if (installedVersion(env) === TRANSFORMERS_VERSION) return null;
  const failed = isCi(env) ? null : recentFailure(env);
  if (failed !== null) return `${failed} (not tried again for 30 minutes: remove ${failureMarker(env)} to retry now)`;
  const home = embedderCacheHome(env);
  mkdirSync(dirname(home), { recursive: true });
  let output = "";
  try {
    await withLock(
      home,
      async () => {
        if (installedVersion(env) === TRANSFORMERS_VERSION) return;
        process.stderr.write(`test setup: installing ${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION} into ${home}\n`);
        // npm's `#!/usr/bin/env node` runs on this Node.
        const path = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ""}`;
        await installTransformersPackage({
          // Offline, npm's retry back-off alone would take minutes before it gives up.
          env: { ...env, CTX_HOME: home, PATH: path, npm_config_fetch_retry_maxtimeout: "15000" },
          onOutput: (text) => {
            output += text;
          },
        });
      },
      { timeoutMs: LOCK_WAIT_MS },
    );
    rmSync(failureMarker(env), { force: true });
    return null;
  } catch (error) {
    const reason = `the local embedder's packages could not be installed: ${(error as Error).message}`;
    if (isCi(env))
      throw new Error(`${reason}\n${output.slice(-2_000)}\n(CI is set, so this fails instead of skipping)`);
    writeFileSync(failureMarker(env), reason);
    return `${reason}\n${output.slice(-2_000)}`;
  }
}

/** Null when the packages are in the cache; else why a test that needs them is skipped (under CI, an error). */
export function missingEmbedderPackages(env: NodeJS.ProcessEnv = process.env): string | null {
  if (installedVersion(env) === TRANSFORMERS_VERSION) return null;
  const reason = `${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION} is not in ${embedderCacheHome(env)} (the test setup installs it with npm)`;
  if (isCi(env)) throw new Error(`${reason}: CI must have it, so this fails instead of skipping`);
  process.stderr.write(`skipped: ${reason}\n`);
  return reason;
}

/** Gives a ctx process run with `ctxHome` the cached packages, as if `ctx embed --setup` had installed them there. */
export function linkEmbedderPackages(ctxHome: string, env: NodeJS.ProcessEnv = process.env): void {
  const dir = embedderPackagesDir({ CTX_HOME: ctxHome });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const entry = pathToFileURL(cachedShimPath(env)).href;
  writeFileSync(join(dir, "load.mjs"), `export * from ${JSON.stringify(entry)};\n`, { mode: 0o600 });
}
