// The picker of `ctx search` on a terminal (@clack/prompts): move through the sessions with the arrow keys, pick
// one, then print its fork command, copy it (when a clipboard tool is on PATH), or run it (`claude --resume <id>
// --fork-session` in the session's folder, the terminal handed over). Off a terminal, or with --json or --no-pick,
// `ctx search` prints its list as before. Every text it hands @clack/prompts (which writes it to the terminal as it
// is) goes through sanitizeLogLine first: one line each, no control from a transcript or a folder name.
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { isCancel, select } from "@clack/prompts";
import { type ForkCandidate, forkArgv } from "../core/search/fork-candidates.ts";
import { CtxError } from "../errors.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import { colorsFor } from "./color.ts";
import type { CliContext } from "./command-io.ts";

export type PickAction = "print" | "copy" | "run";

export interface ClipboardTool {
  command: string;
  args: string[];
}

export interface PickerDeps {
  input: Readable;
  output: Writable;
  clipboard: ClipboardTool | null;
}

export interface Pick {
  candidate: ForkCandidate;
  action: PickAction;
}

/** Asks for a session, then what to do with it; null when the person cancels (Esc, Ctrl-C). */
export async function pickForkCandidate(
  query: string,
  candidates: readonly ForkCandidate[],
  deps: PickerDeps,
): Promise<Pick | null> {
  const io = { input: deps.input, output: deps.output };
  const picked = await select<ForkCandidate>({
    ...io,
    message: sanitizeLogLine(`Sessions matching "${query}": pick one to fork`),
    options: candidates.map((candidate) => pickerOption(candidate)),
    maxItems: 8,
  });
  if (isCancel(picked)) return null;
  const action = await pickForkAction(picked.forkCommand, picked.cwd ?? picked.project, deps);
  return action === null ? null : { candidate: picked, action };
}

/** Asks what to do with a fork command: print it, copy it (when a clipboard tool is there) or run it in `where`;
 *  null when the person cancels. */
export async function pickForkAction(forkCommand: string, where: string, deps: PickerDeps): Promise<PickAction | null> {
  const action = await select<PickAction>({
    input: deps.input,
    output: deps.output,
    message: sanitizeLogLine(forkCommand),
    options: [
      { value: "print", label: "print the fork command" },
      ...(deps.clipboard === null
        ? []
        : [{ value: "copy" as const, label: "copy it to the clipboard", hint: deps.clipboard.command }]),
      { value: "run", label: "run it now", hint: `claude in ${sanitizeLogLine(where)}` },
    ],
  });
  return isCancel(action) ? null : action;
}

/** A session as the picker lists it: its rank and topic, and as a hint its score, age and folder; all sanitized. */
export function pickerOption(candidate: ForkCandidate): { value: ForkCandidate; label: string; hint: string } {
  return {
    value: candidate,
    label: sanitizeLogLine(`${candidate.rank}. ${shorten(candidate.topic, 72)}`),
    hint: sanitizeLogLine(
      `${candidate.scorePercent}% · ${candidate.relativeDate} · ${candidate.cwd ?? candidate.project}`,
    ),
  };
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The first clipboard tool on PATH that fits this session (Wayland, X11, macOS, WSL). */
export function findClipboardTool(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): ClipboardTool | null {
  const tools: ClipboardTool[] = [];
  if (platform === "darwin") tools.push({ command: "pbcopy", args: [] });
  if (env.WAYLAND_DISPLAY) tools.push({ command: "wl-copy", args: [] });
  if (env.DISPLAY)
    tools.push({ command: "xclip", args: ["-selection", "clipboard"] }, { command: "xsel", args: ["-ib"] });
  if (env.WSL_DISTRO_NAME) tools.push({ command: "clip.exe", args: [] });
  return tools.find((tool) => onPath(tool.command, env)) ?? null;
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "").split(delimiter).some((dir) => {
    if (dir === "") return false;
    const path = join(dir, command);
    try {
      if (!statSync(path).isFile()) return false;
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export function copyToClipboard(tool: ClipboardTool, text: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.command, tool.args, { env, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", (error) =>
      reject(new CtxError("PROVIDER_UNAVAILABLE", `cannot run ${tool.command}: ${error.message}`)),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(
            new CtxError("PROVIDER_FAILED", `${tool.command} failed (exit ${code}): ${stderr.trim()}`, {
              hint: "pick `print the fork command` and copy it by hand",
            }),
          ),
    );
    // A tool that exits without reading (no display, say) closes the pipe: its exit code tells what happened.
    child.stdin.on("error", () => {});
    child.stdin.end(text);
  });
}

/** What a fork runs: the session, the folder it runs in, and the command as printed. */
export interface ForkTarget {
  sessionId: string;
  cwd: string | null;
  forkCommand: string;
  /** `--resume-session-at`: the message the fork ends at. */
  atUuid?: string | null;
}

/** Runs `claude --resume <id> --fork-session` in the session's folder with this terminal; resolves its exit code. */
export function runForkCommand(fork: ForkTarget, env: NodeJS.ProcessEnv): Promise<number> {
  const cwd = fork.cwd ?? undefined;
  if (cwd !== undefined && !statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CtxError("NOT_FOUND", `the session's folder ${cwd} does not exist on this machine`, {
      hint: `run it where the project is: ${fork.forkCommand}`,
    });
  }
  return new Promise((resolve, reject) => {
    const child = spawn("claude", forkArgv(fork.sessionId, fork.atUuid ?? null), { cwd, env, stdio: "inherit" });
    child.on("error", (error) =>
      reject(
        new CtxError("NOT_FOUND", `cannot start claude: ${error.message}`, {
          hint: `is Claude Code installed and on PATH? The command: ${fork.forkCommand}`,
        }),
      ),
    );
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/** Does what the person picked with a fork command: print it, copy it, or run it (the exit code becomes ctx's). */
export async function actOnFork(
  ctx: CliContext,
  action: PickAction,
  fork: ForkTarget,
  clipboard: ClipboardTool | null,
): Promise<void> {
  if (action === "print") ctx.out(`${fork.forkCommand}\n`);
  else if (action === "copy" && clipboard !== null) {
    const colors = colorsFor(ctx);
    await copyToClipboard(clipboard, fork.forkCommand, ctx.env);
    ctx.out(`copied: ${fork.forkCommand}\n`, (safe) =>
      safe.replace(/^(copied: )(.*)\n$/s, (_, label: string, command: string) => `${label}${colors.green(command)}\n`),
    );
  } else if (action === "run") {
    ctx.err(`ctx: ${fork.forkCommand}\n`);
    ctx.setExitCode(await runForkCommand(fork, ctx.env));
  }
}
