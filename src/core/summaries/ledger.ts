// The daily token ledger of the LLM summary providers, pure: per UTC day, per provider/model, requests and
// input/output tokens. The cap is checked before a request with the request's estimate (prompt + answer
// allowance), so a day never goes past it by more than what concurrent writers race for.
import * as z from "zod/mini";

export const LEDGER_VERSION = 1;
/** Days kept in the file (older ones are dropped on write). */
export const LEDGER_DAYS_KEPT = 90;

export const LedgerCountsSchema = z.object({
  requests: z.int(),
  inputTokens: z.int(),
  outputTokens: z.int(),
  /** Requests refused by the cap (their messages were summarised extractively instead). */
  refused: z._default(z.int(), 0),
});
export type LedgerCounts = z.infer<typeof LedgerCountsSchema>;

export const LedgerSchema = z.object({
  version: z.literal(LEDGER_VERSION),
  /** `YYYY-MM-DD` (UTC) -> `provider/model` -> counts. */
  days: z.record(z.string(), z.record(z.string(), LedgerCountsSchema)),
});
export type Ledger = z.infer<typeof LedgerSchema>;

export function emptyLedger(): Ledger {
  return { version: LEDGER_VERSION, days: {} };
}

export function ledgerDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function ledgerKey(provider: string, model: string): string {
  return `${provider}/${model}`;
}

/** Tokens (input + output) spent on `day` by every provider together. */
export function tokensUsedOn(ledger: Ledger | null, day: string): number {
  const entries = Object.values(ledger?.days[day] ?? {});
  return entries.reduce((sum, counts) => sum + counts.inputTokens + counts.outputTokens, 0);
}

export interface CapCheck {
  allowed: boolean;
  used: number;
  cap: number;
  /** What the request would add. */
  wanted: number;
}

/** Whether a request of `wanted` tokens fits under today's cap. A cap of 0 refuses every LLM request. */
export function checkDailyCap(ledger: Ledger | null, day: string, cap: number, wanted: number): CapCheck {
  const used = tokensUsedOn(ledger, day);
  return { allowed: used + wanted <= cap, used, cap, wanted };
}

export interface LedgerEntry {
  day: string;
  provider: string;
  model: string;
  requests?: number;
  inputTokens?: number;
  outputTokens?: number;
  refused?: number;
}

/** The ledger with `entry` added (a new object); days past LEDGER_DAYS_KEPT are dropped. */
export function recordLedgerUsage(ledger: Ledger | null, entry: LedgerEntry): Ledger {
  const days: Ledger["days"] = structuredClone(ledger?.days ?? {});
  const day = days[entry.day] ?? {};
  days[entry.day] = day;
  const key = ledgerKey(entry.provider, entry.model);
  const counts = day[key] ?? { requests: 0, inputTokens: 0, outputTokens: 0, refused: 0 };
  day[key] = counts;
  counts.requests += entry.requests ?? 0;
  counts.inputTokens += entry.inputTokens ?? 0;
  counts.outputTokens += entry.outputTokens ?? 0;
  counts.refused += entry.refused ?? 0;
  const kept = Object.keys(days).sort().slice(-LEDGER_DAYS_KEPT);
  return { version: LEDGER_VERSION, days: Object.fromEntries(kept.map((name) => [name, days[name] ?? {}])) };
}

export interface LedgerRow extends LedgerCounts {
  day: string;
  provider: string;
  model: string;
}

/** Flat rows, newest day first, for `ctx summaries ledger`. */
export function ledgerRows(ledger: Ledger | null): LedgerRow[] {
  const rows: LedgerRow[] = [];
  for (const day of Object.keys(ledger?.days ?? {})
    .sort()
    .reverse()) {
    for (const [key, counts] of Object.entries(ledger?.days[day] ?? {}).sort()) {
      const slash = key.indexOf("/");
      rows.push({ day, provider: key.slice(0, slash), model: key.slice(slash + 1), ...counts });
    }
  }
  return rows;
}
