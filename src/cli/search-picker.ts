// The picker of `ctx search` on a terminal (@clack/prompts): move through the sessions with the arrow keys, pick
// one, then print its fork command, copy it (when a clipboard tool is on PATH), or run it (`claude --resume <id>
// --fork-session` in the session's folder, the terminal handed over). Off a terminal, or with --json or --no-pick,
// `ctx search` prints its list as before. Every text it hands @clack/prompts (which writes it to the terminal as it
// is) goes through sanitizeLogLine first: one line each, no control from a transcript or a folder name.
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { isCancel, select } from "@clack/prompts";
import { renderPreviewLabel } from "../core/library/preview-text.ts";
import { type ForkCandidate, forkArgv } from "../core/search/fork-candidates.ts";
import { truncateText } from "../core/transcript/text.ts";
import { CtxError } from "../errors.ts";
import { sanitizeLogLine } from "../terminal-text.ts";
import { colorsFor } from "./color.ts";
import type { CliContext } from "./command-io.ts";
import { onPath } from "./on-path.ts";

export type PickAction = "print" | "copy" | "run";

export interface ClipboardTool {
  command: string;
  args: string[];
}

export interface PickerDeps {
  input: Readable;
  output: Writable;
  clipboard: ClipboardTool | null;
  /** The session's bounded preview as text (src/search/session-preview.ts), shown under the highlighted session;
   *  null when it has none (a teammate's session, a transcript that is gone). */
  preview?: (candidate: ForkCandidate) => Promise<string | null>;
}

/** The pane under the highlighted session: this many lines of its preview, each cut to this many characters. */
export const PANE_LINES = 12;
const PANE_WIDTH = 110;

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
  const panes = new Map<ForkCandidate, string>();
  const load = deps.preview;
  let picking = true;
  if (load !== undefined && candidates.length > 0) {
    // The first session's pane is there when the picker opens; the others load while the person reads it. @clack
    // reads an option's hint at each render and renders again when its output says it was resized: a pane loaded
    // later is drawn at once, on the highlighted session or when the selection reaches it.
    const loadPane = async (candidate: ForkCandidate) => {
      const text = await load(candidate).catch(() => null);
      if (text !== null) panes.set(candidate, paneText(text));
    };
    await loadPane(candidates[0] as ForkCandidate);
    void (async () => {
      for (const candidate of candidates.slice(1)) {
        if (!picking) return;
        await loadPane(candidate);
        if (picking) deps.output.emit("resize");
      }
    })();
  }
  const picked = await select<ForkCandidate>({
    ...io,
    message: sanitizeLogLine(`Sessions matching "${query}": pick one to fork`),
    options: candidates.map((candidate) => pickerOption(candidate, () => panes.get(candidate) ?? null)),
    maxItems: 8,
  });
  picking = false;
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

/**
/**
 * A session as the picker lists it: its rank, your star, its topic and your tags (the preview's label,
 * core/library/preview-text.ts), and as a hint, which @clack shows for the highlighted session only, its score, age,
 * folder and the start of your note, then its preview's pane when `pane` has it; all sanitized.
 */
export function pickerOption(
  candidate: ForkCandidate,
  pane: () => string | null = () => null,
): { value: ForkCandidate; label: string; readonly hint: string } {
  const note = candidate.note === null ? "" : ` · note: ${truncateText(candidate.note, 60)}`;
  const line = sanitizeLogLine(
    `${candidate.scorePercent}% · ${candidate.relativeDate} · ${candidate.cwd ?? candidate.project}${note}`,
  );
  return {
    value: candidate,
    label: sanitizeLogLine(renderPreviewLabel(candidate.rank, candidate.topic, candidate)),
    get hint() {
      const text = pane();
      return text === null ? line : `${line}\n${text}`;
    },
  };
}

/** The pane: the preview's first lines, each one sanitized line cut to the pane's width, indented under the list. */
export function paneText(preview: string): string {
  return preview
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, PANE_LINES)
    .map((line) => `      ${truncateText(sanitizeLogLine(line), PANE_WIDTH)}`)
    .join("\n");
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
