// One `claude -p` process, for every caller that runs Claude Code headless (the `claude-cli` summary provider, the chat
// bridge's turns): the prompt on stdin, the child leading its own process group, stdout capped, the start of stderr
// kept, and past the time limit the whole group ended (Claude, its hooks, its MCP servers): SIGTERM, then SIGKILL after
// `killGraceMs` (at once when it is 0), so nothing it started outlives it (docs/claude-code-facts.md "Running Claude
// Code from ctx"). Every argument is cleaned for the command line (cleanCommandText), and a spawn that throws (an
// argument Node refuses) is an outcome like any other. The callers turn the outcome into their own errors and hints.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { cleanCommandText } from "../core/text/command-text.ts";

export type ClaudeProcessOutcome =
  | { kind: "exited"; stdout: string; stderr: string; code: number | null; signal: NodeJS.Signals | null }
  | { kind: "timed-out" }
  | { kind: "spawn-failed"; error: NodeJS.ErrnoException };

export interface ClaudeProcessOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  input: string;
  timeoutMs: number;
  /** Between the group's SIGTERM and its SIGKILL; 0 sends SIGKILL at once. */
  killGraceMs: number;
  /** stdout past this is dropped (the caller's parse then fails with its own message). */
  maxStdoutBytes: number;
  /** Called with the child's pid once it runs, and again when it has closed (a caller tracking live groups). */
  onStart?: (pid: number) => void;
  onClose?: (pid: number) => void;
}

/** stderr kept: enough for the last lines of an error, never a flood. */
const MAX_STDERR_CHARS = 4_000;

export function runClaudeProcess(options: ClaudeProcessOptions): Promise<ClaudeProcessOutcome> {
  return new Promise((resolve) => {
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(options.command, options.args.map(cleanCommandText), {
        cwd: options.cwd,
        env: options.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
    } catch (error) {
      // Node checks the arguments before it starts anything; its message quotes the argument, so callers must
      // report the code, never the message, to a person.
      resolve({ kind: "spawn-failed", error: error as NodeJS.ErrnoException });
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) options.onStart?.(pid);
    const stdout: Buffer[] = [];
    let stderr = "";
    let size = 0;
    let settled = false;
    const finish = (outcome: ClaudeProcessOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      if (options.killGraceMs > 0) {
        signalGroup(pid, "SIGTERM");
        // The group may hold children the SIGTERM does not end: the SIGKILL stays armed past the answer.
        setTimeout(() => signalGroup(pid, "SIGKILL"), options.killGraceMs).unref();
      } else signalGroup(pid, "SIGKILL");
      finish({ kind: "timed-out" });
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= options.maxStdoutBytes) stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString("utf8");
    });
    child.on("error", (error: NodeJS.ErrnoException) => finish({ kind: "spawn-failed", error }));
    child.on("close", (code, signal) => {
      if (pid !== undefined) options.onClose?.(pid);
      finish({ kind: "exited", stdout: Buffer.concat(stdout).toString("utf8"), stderr, code, signal });
    });
    child.stdin.on("error", () => undefined); // a child that exits early closes its stdin: reported by close
    child.stdin.end(options.input);
  });
}

/** Signals a process group (the child and whatever it started); a group already gone is fine. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
