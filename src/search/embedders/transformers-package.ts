// The nomic embedder's heavy packages (@huggingface/transformers with onnxruntime, ~470 MB installed) are not part of
// ctx's install: BM25, the default, never uses them. `ctx embed --setup` installs them on request into
// `<CTX_HOME>/embedder/` with npm, beside a one-line ESM shim (`load.mjs`) through which ctx imports them, so it
// works the same for a packed install, a checkout or a plugin. A package installed next to ctx is used first.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ctxHome } from "../../config/paths.ts";
import { CtxError } from "../../errors.ts";
import { ensurePrivateDir } from "../../store/files/atomic-write.ts";

export const TRANSFORMERS_PACKAGE = "@huggingface/transformers";
/** The version ctx is tested with (the suite installs it the same way: tests/helpers/embedder-packages.ts). */
export const TRANSFORMERS_VERSION = "4.3.1";
const SHIM = "load.mjs";

export function embedderPackagesDir(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "embedder");
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/** transformers.js from beside ctx, else from `<CTX_HOME>/embedder/`; the first import error when neither has it. */
export async function importTransformersPackage(
  env: NodeJS.ProcessEnv,
  importBesideCtx: () => Promise<unknown> = () => import(/* @vite-ignore */ TRANSFORMERS_PACKAGE),
): Promise<unknown> {
  try {
    return await importBesideCtx();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    const shim = join(embedderPackagesDir(env), SHIM);
    if (!existsSync(shim)) throw error;
    return import(/* @vite-ignore */ pathToFileURL(shim).href);
  }
}

export interface SetupDeps {
  env: NodeJS.ProcessEnv;
  /** What npm installs; default `@huggingface/transformers@<TRANSFORMERS_VERSION>` (a tarball or folder works too). */
  packageSpec?: string;
  /** npm's own output (progress, errors) goes here. */
  onOutput?: (text: string) => void;
}

export interface SetupResult {
  dir: string;
  packageSpec: string;
  installedBytes: number;
}

/** Installs the embedder's packages into `<CTX_HOME>/embedder/` with npm and writes the import shim. */
export async function installTransformersPackage(deps: SetupDeps): Promise<SetupResult> {
  const dir = embedderPackagesDir(deps.env);
  const packageSpec = deps.packageSpec ?? `${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION}`;
  await ensurePrivateDir(dir);
  const manifest = join(dir, "package.json");
  if (!existsSync(manifest)) {
    await writeFile(manifest, `${JSON.stringify({ name: "ctx-embedder", private: true }, null, 2)}\n`, { mode: 0o600 });
  }
  const env: NodeJS.ProcessEnv = {
    ...deps.env,
    // onnxruntime-node's install script otherwise fetches GPU (CUDA) libraries ctx does not use: CPU only.
    ONNXRUNTIME_NODE_INSTALL: deps.env.ONNXRUNTIME_NODE_INSTALL ?? "skip",
  };
  const args = ["install", "--no-audit", "--no-fund", "--omit=dev", "--save-exact", packageSpec];
  const code = await runNpm(args, dir, env, deps.onOutput ?? (() => {}));
  if (code !== 0) {
    throw new CtxError("EMBEDDER_UNAVAILABLE", `npm ${args.join(" ")} failed in ${dir} (exit ${code})`, {
      hint: "npm's error is above; it needs the npm registry (or set CTX_EMBEDDER_PACKAGE to a local tarball)",
    });
  }
  await writeFile(join(dir, SHIM), `export * from "${TRANSFORMERS_PACKAGE}";\n`, { mode: 0o600 });
  return { dir, packageSpec, installedBytes: await folderBytes(join(dir, "node_modules")) };
}

function runNpm(args: string[], cwd: string, env: NodeJS.ProcessEnv, onOutput: (text: string) => void) {
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", args, {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => onOutput(chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => onOutput(chunk.toString("utf8")));
    child.on("error", (error) =>
      reject(
        new CtxError("EMBEDDER_UNAVAILABLE", `cannot run npm: ${error.message}`, {
          hint: "npm comes with Node.js; put it on PATH, or set embedder.provider to ollama",
          cause: error,
        }),
      ),
    );
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/** Bytes of regular files under `dir` (symlinks not followed), for the size report. */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    total += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  }
  return total;
}
