// Which command ctx writes into Claude Code's settings, and how to recognise a command ctx wrote earlier
// (so a re-run updates in place and `--remove` takes out exactly ctx's entries).
import { join } from "node:path";
import type { CtxCommand } from "./hooks-spec.ts";

/** A name found on PATH: where, and the real files it runs (its realpath, or the script a shim starts). */
export interface PathLookup {
  path: string;
  targets: string[];
}

export interface CommandCandidates {
  /** Real path of this program's entry (dist/ctx.js). */
  self: string;
  /** Absolute dist/ctx.js to write in the absolute form. */
  distEntry: string;
  /** Absolute node binary running now. */
  execPath: string;
  ctxOnPath: PathLookup | null;
  claudeCtxOnPath: PathLookup | null;
}

export interface CommandChoice extends CtxCommand {
  reason: string;
}

export function chooseCtxCommand(candidates: CommandCandidates, override?: string): CommandChoice {
  if (override !== undefined) {
    const [command, ...prefixArgs] = splitCommandLine(override);
    if (command !== undefined) return { command, prefixArgs, reason: "--command" };
  }
  const { ctxOnPath, claudeCtxOnPath, self } = candidates;
  if (ctxOnPath?.targets.includes(self))
    return { command: "ctx", prefixArgs: [], reason: "`ctx` on PATH is this program" };
  const otherCtx = ctxOnPath === null ? "" : `\`ctx\` on PATH is another program (${ctxOnPath.path}); `;
  if (claudeCtxOnPath?.targets.includes(self)) {
    return { command: "claude-ctx", prefixArgs: [], reason: `${otherCtx}\`claude-ctx\` on PATH is this program` };
  }
  const none = ctxOnPath === null ? "neither `ctx` nor `claude-ctx` on PATH is this program; " : otherCtx;
  return {
    command: candidates.execPath,
    prefixArgs: [candidates.distEntry],
    reason: `${none}using absolute paths`,
  };
}

/** Splits `a "b c" 'd'` into [a, b c, d]; enough for commands people type, not a shell. */
export function splitCommandLine(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) tokens.push(match[1] ?? match[2] ?? match[3] ?? "");
  return tokens;
}

const CTX_NAMES = new Set(["ctx", "claude-ctx"]);
const NODE_NAMES = new Set(["node", "nodejs"]);

function baseName(path: string): string {
  const last = path.split(/[\\/]/).pop() ?? path;
  return last.replace(/\.(cmd|exe|ps1|bat)$/i, "").toLowerCase();
}

/**
 * True when `command args` runs ctx with `verb` ("hook" or "serve") right after the optional prefix:
 * `ctx <verb>`, `claude-ctx <verb>`, `<node> …/ctx.js <verb>`, or the exact command being written now.
 * Shell-form strings (no args) are split first.
 */
export function isCtxInvocation(
  command: unknown,
  args: unknown,
  verb: "hook" | "serve" | "statusline",
  current?: CtxCommand,
): boolean {
  if (typeof command !== "string") return false;
  let argv: string[];
  if (args === undefined) {
    argv = splitCommandLine(command);
  } else {
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) return false;
    argv = [command, ...(args as string[])];
  }
  const [cmd, ...rest] = argv;
  if (cmd === undefined) return false;
  if (current && cmd === current.command && current.prefixArgs.every((arg, i) => rest[i] === arg)) {
    if (rest[current.prefixArgs.length] === verb) return true;
  }
  const name = baseName(cmd);
  if (CTX_NAMES.has(name)) return rest[0] === verb;
  if (NODE_NAMES.has(name)) return rest[0] !== undefined && baseName(rest[0]) === "ctx.js" && rest[1] === verb;
  return false;
}

/**
 * The scripts an npm/pnpm shim starts: `"$basedir/../lib/node_modules/claude-ctx/dist/ctx.js"` in sh shims,
 * `"%~dp0\…\ctx.js"` / `"%dp0%\…"` in cmd shims, resolved against the shim's folder.
 */
export function parseShimTargets(shimText: string, shimDir: string): string[] {
  const targets = new Set<string>();
  for (const match of shimText.matchAll(/(?:\$basedir|%~dp0|%dp0%)[\\/]([^"'\s]+?\.[cm]?js)\b/g)) {
    if (match[1] !== undefined) targets.add(join(shimDir, match[1].replace(/\\/g, "/")));
  }
  // The launcher scripts/install-launcher.sh writes (src/setup/launcher.ts): `exec <node> <clone>/dist/ctx.js "$@"`.
  if (shimText.includes(LAUNCHER_MARKER)) {
    const exec = shimText.split("\n").find((line) => line.startsWith("exec "));
    for (const word of splitCommandLine(exec?.slice(5) ?? "")) if (/^\/.*\.[cm]?js$/.test(word)) targets.add(word);
  }
  return [...targets];
}

/** The line that marks the launcher scripts/install-launcher.sh writes. */
export const LAUNCHER_MARKER = "# ctx launcher (scripts/install-launcher.sh)";
