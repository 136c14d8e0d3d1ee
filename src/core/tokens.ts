// Token accounting from real usage (reference/claude-code.md §2.3): the context size now is input +
// cache_creation + cache_read of the last main-chain assistant reply; after a compact_boundary, usage from
// before it no longer counts (the boundary's postTokens stand in until the next reply). Also the window
// (configured, reported by the status line, else inferred from the model) and where auto-compaction fires.
import { contextTokensOf, isCompactBoundary, isMainChain, isSkipped, parseTranscriptLine } from "./transcript.ts";

export const DEFAULT_WINDOW_TOKENS = 200_000;
export const EXTENDED_WINDOW_TOKENS = 1_000_000;

export interface CompactionMark {
  /** The boundary's timestamp (ISO 8601), or null when it carries none. */
  at: string | null;
  trigger: string | null;
  preTokens: number | null;
  postTokens: number | null;
}

export interface ContextReading {
  /** Tokens in the context now; null when unknown (just compacted, no postTokens, no reply yet). */
  usedTokens: number | null;
  /** `usage`: a main-chain reply's usage; `post-tokens`: a boundary's postTokens; `unknown`: neither. */
  source: "usage" | "post-tokens" | "unknown";
  /** The reply's model id (bare API id: no `[1m]`), when the reading comes from a reply. */
  model: string | null;
  /** The reply's or boundary's timestamp. */
  at: string | null;
  /** The compaction boundary the reading stopped at (newer than any usable reply); null otherwise. */
  compaction: CompactionMark | null;
}

// Cheap pre-filters before a JSON parse: only these lines can decide a reading.
const ASSISTANT_NEEDLE = '"assistant"';
const BOUNDARY_NEEDLE = '"compact_boundary"';

/**
 * The reading from a transcript's tail, scanned newest line first. `text` is the tail; when it does not
 * start at the file's beginning its first (possibly partial) line is ignored. null = undecided: nothing in
 * this tail settles it, so read a longer one (or, at the file's start, the transcript has no usage yet).
 */
export function readContextFromTail(text: string, atFileStart: boolean): ContextReading | null {
  const lines = (atFileStart && text.startsWith("\uFEFF") ? text.slice(1) : text).split("\n");
  const first = atFileStart ? 0 : 1;
  for (let i = lines.length - 1; i >= first; i--) {
    const reading = readingFromLine(lines[i] ?? "");
    if (reading !== null) return reading;
  }
  return null;
}

function readingFromLine(line: string): ContextReading | null {
  const hasAssistant = line.includes(ASSISTANT_NEEDLE);
  const hasBoundary = line.includes(BOUNDARY_NEEDLE);
  if (!hasAssistant && !hasBoundary) return null;
  const entry = parseTranscriptLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  if (isSkipped(entry) || !isMainChain(entry)) return null;
  if (entry.type === "assistant") {
    const used = contextTokensOf(entry.message.usage);
    if (used === null) return null;
    return {
      usedTokens: used,
      source: "usage",
      model: entry.message.model ?? null,
      at: entry.timestamp ?? null,
      compaction: null,
    };
  }
  if (isCompactBoundary(entry)) {
    const meta = entry.compactMetadata;
    const compaction: CompactionMark = {
      at: entry.timestamp ?? null,
      trigger: meta?.trigger ?? null,
      preTokens: meta?.preTokens ?? null,
      postTokens: meta?.postTokens ?? null,
    };
    const post = compaction.postTokens;
    return {
      usedTokens: post,
      source: post === null ? "unknown" : "post-tokens",
      model: null,
      at: compaction.at,
      compaction,
    };
  }
  return null;
}

/** Model ids and names that run with a 1M window: `[1m]` variants, "(1M context)" names, native-1M models. */
const EXTENDED_MODEL = /\[1m\]|\b1m context\b|sonnet-5|fable-5|opus-4-(?:[7-9]|\d{2})(?!\d)/i;

export interface WindowInput {
  /** guard.windowTokens; 0 = not configured. */
  configured: number;
  /** context_window_size the status line last reported for the session, if any. */
  reported: number | null;
  model: string | null;
  usedTokens: number | null;
  /** CLAUDE_CODE_DISABLE_1M_CONTEXT=1 holds sessions to 200K. */
  extendedDisabled: boolean;
}

/** The window in tokens: configured, else reported, else inferred (a context already past 200K is a 1M one). */
export function inferWindowTokens(input: WindowInput): number {
  if (input.configured > 0) return input.configured;
  if (input.reported !== null && input.reported > 0) return input.reported;
  if (!input.extendedDisabled && input.model !== null && EXTENDED_MODEL.test(input.model))
    return EXTENDED_WINDOW_TOKENS;
  if (input.usedTokens !== null && input.usedTokens > DEFAULT_WINDOW_TOKENS) return EXTENDED_WINDOW_TOKENS;
  return DEFAULT_WINDOW_TOKENS;
}

export interface AutoCompactSettings {
  bufferTokens: number;
  /** CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: compact at this percent of the window (can only lower). */
  percentOverride: number | null;
  /** CLAUDE_CODE_AUTO_COMPACT_WINDOW / `/autocompact`: compact at this many tokens. */
  tokensOverride: number | null;
  /** DISABLE_AUTO_COMPACT or DISABLE_COMPACT: nothing fires before the window is full. */
  disabled: boolean;
}

/** Claude Code's own switches, from the environment it passes to hooks and the status line. */
export function autoCompactSettingsFromEnv(
  env: Record<string, string | undefined>,
  bufferTokens: number,
): AutoCompactSettings {
  const positive = (value: string | undefined) => {
    const n = Number(value);
    return value !== undefined && value !== "" && Number.isFinite(n) && n > 0 ? n : null;
  };
  const on = (value: string | undefined) => value !== undefined && value !== "" && value !== "0" && value !== "false";
  return {
    bufferTokens,
    percentOverride: positive(env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE),
    tokensOverride: positive(env.CLAUDE_CODE_AUTO_COMPACT_WINDOW),
    disabled: on(env.DISABLE_AUTO_COMPACT) || on(env.DISABLE_COMPACT),
  };
}

/** The context size at which Claude Code compacts on its own. */
export function autoCompactThreshold(windowTokens: number, settings: AutoCompactSettings): number {
  if (settings.disabled) return windowTokens;
  let threshold = Math.max(0, windowTokens - settings.bufferTokens);
  if (settings.tokensOverride !== null) threshold = Math.min(windowTokens, settings.tokensOverride);
  if (settings.percentOverride !== null && settings.percentOverride < 100) {
    threshold = Math.min(threshold, Math.floor((windowTokens * settings.percentOverride) / 100));
  }
  return threshold;
}

/** From a recorded status-line input (unvalidated JSON): the window it reported and the model id. */
export function reportedWindowOf(recorded: unknown): { windowTokens: number | null; model: string | null } {
  const value = (recorded ?? {}) as { context_window?: { context_window_size?: unknown }; model?: { id?: unknown } };
  const size = value.context_window?.context_window_size;
  const model = value.model?.id;
  return {
    windowTokens: size === undefined ? null : positiveNumber(size),
    model: typeof model === "string" ? model : null,
  };
}

function positiveNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}
