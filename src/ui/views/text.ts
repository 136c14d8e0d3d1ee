// Small text shaping the views share. Escaping is not done here: Hono JSX escapes every string it renders; these
// only make a value fit a line (control characters and line breaks shown as one space, long text cut).

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** One line of at most `max` characters (code points), ending in "…" when cut. */
export function clipLine(text: string, max: number): string {
  const line = text.replace(CONTROL, " ").trim();
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, Math.max(0, max - 1)).join("")}…`;
}

/** "2026-12-02 04:13" (UTC) for epoch ms or an ISO string; "–" when there is none. */
export function shortDate(at: number | string | null): string {
  if (at === null) return "–";
  const ms = typeof at === "number" ? at : Date.parse(at);
  if (!Number.isFinite(ms) || ms <= 0) return "–";
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** 12K / 1.20M tokens, as `ctx report` writes them. */
export function kTokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(2)}M` : `${Math.round(n / 1000)}K`;
}

export { sessionHref } from "./links.ts";
