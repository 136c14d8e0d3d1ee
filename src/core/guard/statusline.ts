// Claude Code's status-line stdin (docs/claude-code-facts.md "Context-window usage"): a loose schema (fields come and
// go between versions), the context figures it carries, and what the guard takes from a recorded copy.
import * as z from "zod/mini";

const count = () => z.optional(z.nullable(z.number()));

export const StatusLineInputSchema = z.looseObject({
  session_id: z.optional(z.string()),
  transcript_path: z.optional(z.string()),
  cwd: z.optional(z.string()),
  model: z.optional(z.looseObject({ id: z.optional(z.string()), display_name: z.optional(z.string()) })),
  workspace: z.optional(z.looseObject({ current_dir: z.optional(z.string()), project_dir: z.optional(z.string()) })),
  version: z.optional(z.string()),
  cost: z.optional(z.nullable(z.looseObject({ total_cost_usd: count() }))),
  context_window: z.optional(
    z.nullable(
      z.looseObject({
        total_input_tokens: count(),
        total_output_tokens: count(),
        context_window_size: count(),
        used_percentage: count(),
        remaining_percentage: count(),
        current_usage: z.optional(
          z.nullable(
            z.looseObject({
              input_tokens: count(),
              output_tokens: count(),
              cache_creation_input_tokens: count(),
              cache_read_input_tokens: count(),
            }),
          ),
        ),
      }),
    ),
  ),
  exceeds_200k_tokens: z.optional(z.boolean()),
});
export type StatusLineInput = z.infer<typeof StatusLineInputSchema>;

export interface StatusLineContext {
  /** Tokens in context now: current_usage (input + cache creation + cache read), else used_percentage of the
   * window, else total_input_tokens (what CC 1.0.x sent); null when the status line says nothing (after /compact). */
  usedTokens: number | null;
  windowTokens: number | null;
  model: string | null;
}

export function contextOfStatusLine(input: StatusLineInput): StatusLineContext {
  const window = input.context_window ?? null;
  const size = positive(window?.context_window_size);
  const model = input.model?.id ?? input.model?.display_name ?? null;
  const unknown = { usedTokens: null, windowTokens: size, model };
  if (window === null) return unknown;
  if ("current_usage" in window) {
    // null before the first call and right after /compact: unknown, whatever the other fields say.
    const current = window.current_usage ?? null;
    if (current === null) return unknown;
    const parts = [current.input_tokens, current.cache_creation_input_tokens, current.cache_read_input_tokens];
    if (parts.some((part) => typeof part === "number")) {
      return { usedTokens: parts.reduce<number>((sum, part) => sum + (part ?? 0), 0), windowTokens: size, model };
    }
  }
  if (size !== null && typeof window.used_percentage === "number") {
    return { usedTokens: Math.round((window.used_percentage / 100) * size), windowTokens: size, model };
  }
  const total = window.total_input_tokens;
  return typeof total === "number" ? { usedTokens: total, windowTokens: size, model } : unknown;
}

function positive(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}
