// Finds or installs the real Claude Code CLI for end-to-end tests: a pinned npm release kept in a cache folder
// (never a dependency of ctx), installed once per machine behind a directory lock because vitest runs test
// files in parallel workers. Without it tests skip with a reason, except under CI, where they must fail.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { withLock } from "../../../src/store/files/lock.ts";
import { isCi } from "../../helpers/required-tool.ts";

export const CLAUDE_CODE_VERSION = "2.1.330";
const PACKAGE = "@anthropic-ai/claude-code";
const INSTALL_TIMEOUT_MS = 240_000;

export type ClaudeCli = { bin: string; version: string } | { skipReason: string };

interface CommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

function runCommand(command: string, args: string[], timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve) => {
    // Node 24 (this process) first on PATH, so npm's `#!/usr/bin/env node` runs on it.
    const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}` };
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => resolve({ exitCode: null, stdout, stderr, error }));
    child.on("close", (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

export function claudeCliDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CTX_CLAUDE_CLI_DIR;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const cache = env.XDG_CACHE_HOME || join(env.HOME ?? homedir(), ".cache");
  return join(cache, "ctx-test", `claude-code-${CLAUDE_CODE_VERSION}`);
}

/**
 * Where the binary can be in an install: the wrapper's `bin/claude.exe` once its postinstall copied the
 * native binary over the stub, else the platform package's own binary (when install scripts were skipped).
 */
function binaryCandidates(dir: string): string[] {
  const modules = join(dir, "node_modules", "@anthropic-ai");
  const platform = `${process.platform}-${process.arch}`;
  return [
    join(modules, "claude-code", "bin", "claude.exe"),
    join(modules, `claude-code-${platform}`, "claude"),
    join(modules, `claude-code-${platform}-musl`, "claude"),
  ];
}

async function versionOf(bin: string): Promise<string | undefined> {
  if (!existsSync(bin)) return undefined;
  const result = await runCommand(bin, ["--version"], 30_000);
  if (result.exitCode !== 0) return undefined;
  return /^(\d+\.\d+\.\d+)/.exec(result.stdout.trim())?.[1];
}

async function findInstalled(dir: string): Promise<string | undefined> {
  for (const bin of binaryCandidates(dir)) {
    if ((await versionOf(bin)) === CLAUDE_CODE_VERSION) return bin;
  }
  return undefined;
}

/** npm's error lines without the stack trace. */
function summarizeNpmError(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.trim() !== "" && !/^npm error\s+at /.test(line));
  return lines.slice(0, 6).join(" | ").slice(0, 800);
}

async function installInto(dir: string): Promise<{ bin: string } | { failure: string }> {
  await mkdir(dirname(dir), { recursive: true });
  // The shared cross-process lock (its holder refreshes it; a dead holder's is taken over), waiting out an install.
  return withLock(
    dir,
    async () => {
      const already = await findInstalled(dir);
      if (already !== undefined) return { bin: already };
      await mkdir(dir, { recursive: true });
      const args = ["install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "--loglevel=error"];
      // Offline, npm's default retry back-off alone takes over a minute before it gives up.
      args.push("--fetch-retry-maxtimeout=15000");
      const result = await runCommand("npm", [...args, `${PACKAGE}@${CLAUDE_CODE_VERSION}`], INSTALL_TIMEOUT_MS);
      if (result.error !== undefined) return { failure: `could not run npm: ${result.error.message}` };
      if (result.exitCode !== 0) {
        return { failure: `npm install exited ${result.exitCode}: ${summarizeNpmError(result.stderr)}` };
      }
      const bin = await findInstalled(dir);
      if (bin === undefined) return { failure: `npm installed ${PACKAGE} in ${dir}, but no working binary is in it` };
      return { bin };
    },
    { timeoutMs: INSTALL_TIMEOUT_MS + 60_000 },
  );
}

async function resolveClaudeCli(): Promise<ClaudeCli> {
  const explicit = process.env.CTX_CLAUDE_BIN;
  if (explicit !== undefined && explicit !== "") {
    const version = await versionOf(explicit);
    if (version === undefined) return { skipReason: `CTX_CLAUDE_BIN=${explicit} does not run \`--version\`` };
    return { bin: explicit, version };
  }
  const dir = claudeCliDir();
  const installed = await findInstalled(dir);
  if (installed !== undefined) return { bin: installed, version: CLAUDE_CODE_VERSION };
  const outcome = await installInto(dir);
  if ("failure" in outcome) return { skipReason: `Claude Code ${CLAUDE_CODE_VERSION} unavailable: ${outcome.failure}` };
  return { bin: outcome.bin, version: CLAUDE_CODE_VERSION };
}

let pending: Promise<ClaudeCli> | undefined;

/**
 * The Claude Code binary to test against, installing it on first use. Resolves `{ skipReason }` when it
 * cannot be had; under CI (`CI` set) that is an error instead, so a broken install never passes silently.
 */
export async function ensureClaudeCli(): Promise<ClaudeCli> {
  pending ??= resolveClaudeCli();
  const cli = await pending;
  if ("skipReason" in cli && isCi(process.env)) {
    throw new Error(`${cli.skipReason} (CI is set, so this fails instead of skipping)`);
  }
  return cli;
}
