// Token accounting from real usage (docs/claude-code-facts.md "Context-window usage"): the context size now is input +
// cache_creation + cache_read of the last main-chain assistant reply; after a compact_boundary, usage from
// before it no longer counts (the boundary's postTokens stand in until the next reply). Also the window
// (configured, reported by the status line, else inferred from the model) and where auto-compaction fires.

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

// The few fields a reading needs, checked by hand rather than through the transcript schemas
// (core/transcript/entries.ts): this runs after every tool call, and building those schemas costs the hook more than
// the whole reading. The rules are the same: main chain only (no sidechain, API error or `<synthetic>`).
function readingFromLine(line: string): ContextReading | null {
  const hasAssistant = line.includes(ASSISTANT_NEEDLE);
  const hasBoundary = line.includes(BOUNDARY_NEEDLE);
  if (!hasAssistant && !hasBoundary) return null;
  let entry: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(line);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
    entry = value as Record<string, unknown>;
  } catch {
    return null; // a malformed line, or the unfinished last line of a transcript being written
  }
  if (entry.isSidechain === true) return null;
  const at = typeof entry.timestamp === "string" ? entry.timestamp : null;
  if (entry.type === "assistant") {
    const message = asObject(entry.message);
    if (message === null || entry.isApiErrorMessage === true || message.model === "<synthetic>") return null;
    const used = contextTokensOfUsage(asObject(message.usage));
    if (used === null) return null;
    const model = typeof message.model === "string" ? message.model : null;
    return { usedTokens: used, source: "usage", model, at, compaction: null };
  }
  if (entry.type === "system" && entry.subtype === "compact_boundary") {
    const meta = asObject(entry.compactMetadata);
    const compaction: CompactionMark = {
      at,
      trigger: typeof meta?.trigger === "string" ? meta.trigger : null,
      preTokens: numberOrNull(meta?.preTokens),
      postTokens: numberOrNull(meta?.postTokens),
    };
    const post = compaction.postTokens;
    return { usedTokens: post, source: post === null ? "unknown" : "post-tokens", model: null, at, compaction };
  }
  return null;
}

/** input + cache creation + cache read (output excluded); null when the usage has none of them. */
function contextTokensOfUsage(usage: Record<string, unknown> | null): number | null {
  if (usage === null) return null;
  const parts = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens].map(
    numberOrNull,
  );
  if (parts.every((part) => part === null)) return null;
  return parts.reduce<number>((sum, part) => sum + (part ?? 0), 0);
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
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
  return {
    bufferTokens,
    percentOverride: positive(env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE),
    tokensOverride: positive(env.CLAUDE_CODE_AUTO_COMPACT_WINDOW),
    disabled: isEnvFlagOn(env.DISABLE_AUTO_COMPACT) || isEnvFlagOn(env.DISABLE_COMPACT),
  };
}

/** An environment switch such as CLAUDE_CODE_DISABLE_1M_CONTEXT=1: set, and not "0" or "false". */
export function isEnvFlagOn(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
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
