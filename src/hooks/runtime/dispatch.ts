// Runs one hook: event name -> parse and validate stdin -> handler under a time limit -> the reply.
// It never throws and never breaks the user's session: every failure is exit 0, one stderr line, no stdout.
// Every stderr line goes through sanitizeLogLine (Claude Code shows it): no ESC from a transcript or a path.
import { defaultConfig } from "../../config/defaults.ts";
import { HOOK_EVENT_NAMES, resolveHookEvent } from "../../core/hooks/events.ts";
import { describeError } from "../../errors.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import type { HookDefinition, HookDeps, HookLoader } from "./types.ts";

export interface HookRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** stdin never ended within its time limit and a read of it is still blocked (src/hooks/runtime/process.ts). */
  abandonedStdinRead?: boolean;
}

export interface HookRunDeps extends Omit<HookDeps, "projectRoot" | "config" | "cliPath"> {
  cliPath?: string;
  findProjectRoot: (cwd: string) => string;
  /** Loads the config for a project; may throw CONFIG_INVALID (the hook then runs on defaults). */
  loadConfig: (projectRoot: string) => HookDeps["config"] | Promise<HookDeps["config"]>;
  /** The event's definition: ./table.ts loadHook (every event), or the lean entry's (its own events). */
  loadHook: HookLoader;
}

const quiet = (message: string): HookRunResult => ({
  stdout: "",
  stderr: stderrLine(`ctx hook: ${message}`),
  exitCode: 0,
});

/** One stderr line, sanitized, with its newline. */
export function stderrLine(text: string): string {
  return `${sanitizeLogLine(text)}\n`;
}

/** A handler's stderr (lines it composed, joined by newlines): each line sanitized on its own. */
function handlerStderr(text: string | undefined): string {
  return text === undefined ? "" : text.trimEnd().split("\n").map(stderrLine).join("");
}

export async function runHook(eventName: string, stdinText: string, deps: HookRunDeps): Promise<HookRunResult> {
  const event = resolveHookEvent(eventName);
  if (event === null) {
    const known = HOOK_EVENT_NAMES.join(", ");
    return quiet(`unknown event "${eventName}" (known: ${known}); nothing done`);
  }
  if (stdinText.trim() === "") return quiet(`${event}: empty stdin, expected the hook's JSON input; nothing done`);

  let raw: unknown;
  try {
    raw = JSON.parse(stdinText);
  } catch (error) {
    return quiet(`${event}: stdin is not valid JSON (${describeError(error)}); nothing done`);
  }
  let definition: HookDefinition | undefined;
  try {
    definition = await deps.loadHook(event);
  } catch (error) {
    return quiet(`${event}: cannot load its handler (${describeError(error)}); nothing done`);
  }
  if (definition === undefined) return quiet(`${event}: not handled by this entry of ctx; nothing done`);
  const checked = definition.check(raw);
  if (!checked.ok) return quiet(`${event}: invalid hook input: ${checked.problem}; nothing done`);
  const input = checked.input as { cwd: string };

  let projectRoot: string;
  try {
    projectRoot = deps.findProjectRoot(input.cwd);
  } catch (error) {
    return quiet(`${event}: ${describeError(error)}; nothing done`);
  }
  let config = defaultConfig();
  let warning = "";
  try {
    config = await deps.loadConfig(projectRoot);
  } catch (error) {
    warning = stderrLine(`ctx hook: ${event}: ${describeError(error)}; running on the default settings`);
  }

  const handlerDeps: HookDeps = {
    env: deps.env,
    now: deps.now,
    logger: deps.logger,
    projectRoot,
    config,
    cliPath: deps.cliPath ?? "",
  };
  const limitMs = definition.timeoutMs?.(config) ?? config.hooks.handlerTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), limitMs);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([definition.handle(checked.input, handlerDeps), timeout]);
    const timedOut = outcome === "timeout";
    const result = timedOut ? (definition.onTimeout?.(config, limitMs) ?? null) : outcome;
    const timeoutLine = timedOut
      ? stderrLine(`ctx hook: ${event}: handler took longer than ${limitMs} ms; abandoned`)
      : "";
    if (result === null) return { stdout: "", stderr: warning + timeoutLine, exitCode: 0 };
    const reply = result.reply;
    const stdout = reply === undefined ? "" : typeof reply === "string" ? reply : `${JSON.stringify(reply)}\n`;
    const stderr = warning + timeoutLine + handlerStderr(result.stderr);
    return { stdout, stderr, exitCode: result.exitCode ?? 0 };
  } catch (error) {
    return {
      stdout: "",
      stderr: warning + stderrLine(`ctx hook: ${event}: failed: ${describeError(error)}`),
      exitCode: 0,
    };
  } finally {
    clearTimeout(timer);
  }
}
