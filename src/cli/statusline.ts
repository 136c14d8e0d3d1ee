// `ctx statusline`: Claude Code's status-line command. Reads the JSON Claude Code sends on stdin, records
// the exact context figures it carries (`.ctx/guard/<session>.statusline.json`, which the guard then uses
// for the window size), and prints ONE line: used %, tier, velocity, operations left before auto-compact.
// It never fails: bad or missing stdin prints a minimal line and exits 0 (a status line that errors is
// worse than a plain one). The guard's measurements come from the PostToolUse hook; this only reads them.
import { defaultConfig } from "../config/defaults.ts";
import type { Config } from "../config/schema.ts";
import { GUARD_TIERS, remainingPercent } from "../core/guard/state.ts";
import { contextOfStatusLine, StatusLineInputSchema } from "../core/guard/statusline.ts";
import { formatStatusLine } from "../core/guard/text.ts";
import { dynamicThresholds, levelFor } from "../core/guard/tiers.ts";
import {
  autoCompactSettingsFromEnv,
  autoCompactThreshold,
  inferWindowTokens,
  isEnvFlagOn,
} from "../core/guard/tokens.ts";
import { readGuardState, statusLinePath, writeGuardFile } from "../store/guard/guard-store.ts";
import { readContextTail } from "../store/transcript/tail.ts";

export const MINIMAL_STATUS_LINE = "ctx";

export interface StatusLineDeps {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  cwd: string;
  findProjectRoot: (cwd: string) => string;
  loadConfig: (projectRoot: string) => Config | Promise<Config>;
}

export async function renderStatusLine(stdinText: string, deps: StatusLineDeps): Promise<string> {
  let raw: unknown;
  try {
    raw = JSON.parse(stdinText);
  } catch {
    return MINIMAL_STATUS_LINE;
  }
  const parsed = StatusLineInputSchema.safeParse(raw);
  if (!parsed.success) return MINIMAL_STATUS_LINE;
  const input = parsed.data;
  const projectRoot = deps.findProjectRoot(input.workspace?.project_dir ?? input.cwd ?? deps.cwd);
  let config = defaultConfig();
  try {
    config = await deps.loadConfig(projectRoot);
  } catch {
    // a broken config file must not break the status line: the defaults then
  }
  const sessionId = input.session_id ?? null;
  if (sessionId !== null) {
    const recorded = {
      receivedAt: deps.now().toISOString(),
      session_id: sessionId,
      version: input.version ?? null,
      model: input.model ?? null,
      context_window: input.context_window ?? null,
      cost: input.cost ?? null,
      exceeds_200k_tokens: input.exceeds_200k_tokens ?? null,
    };
    try {
      writeGuardFile(projectRoot, statusLinePath(projectRoot, sessionId), recorded);
    } catch {
      // recording is a bonus; the line still prints
    }
  }
  const guard = config.guard;
  const state = sessionId === null ? null : readGuardState(projectRoot, sessionId);
  const context = contextOfStatusLine(input);
  let used = context.usedTokens;
  if (used === null && input.context_window?.current_usage !== null && input.transcript_path !== undefined) {
    used = readContextTail(input.transcript_path).reading?.usedTokens ?? null;
  }
  const windowTokens = inferWindowTokens({
    configured: guard.windowTokens,
    reported: context.windowTokens,
    model: context.model,
    usedTokens: used,
    extendedDisabled: isEnvFlagOn(deps.env.CLAUDE_CODE_DISABLE_1M_CONTEXT),
  });
  const autoCompactTokens = autoCompactThreshold(
    windowTokens,
    autoCompactSettingsFromEnv(deps.env, guard.autoCompactBufferTokens),
  );
  let tier: string = state?.tier ?? "ok";
  if (used !== null) {
    const thresholds = state?.thresholds ?? dynamicThresholds([], windowTokens, guard);
    const level = levelFor(remainingPercent(used, autoCompactTokens, windowTokens), thresholds);
    tier = GUARD_TIERS[Math.min(4, level + (state?.alarm ? 1 : 0))] ?? "ok";
  }
  const forecast =
    state?.velocity !== null && state?.velocity !== undefined && state.velocity > 0 && used !== null
      ? Math.max(0, Math.floor((autoCompactTokens - used) / ((state.velocity / 100) * windowTokens)))
      : null;
  return formatStatusLine({
    usedTokens: used,
    windowTokens,
    autoCompactTokens,
    tier,
    velocity: state?.velocity ?? null,
    forecastOperations: forecast,
  });
}

/** The whole command: stdin in, one line out, never throws. */
export async function runStatusLine(
  stdin: NodeJS.ReadableStream,
  out: (text: string) => void,
  deps: StatusLineDeps,
): Promise<void> {
  let line = MINIMAL_STATUS_LINE;
  try {
    const { readStdin } = await import("../hooks/runtime/stdin.ts");
    line = await renderStatusLine((await readStdin(stdin as NodeJS.ReadStream)).text, deps);
  } catch {
    // the minimal line
  }
  out(`${line}\n`);
}
