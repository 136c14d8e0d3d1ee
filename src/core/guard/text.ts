// What the guard says: the note Claude receives when a tier rises (PostToolUse additionalContext, phrased as
// facts), the status-line bar, and the health report of `ctx status`, `ctx_health` and `ctx://health`.

import type { Health } from "./health.ts";
import type { GuardNotice } from "./tiers.ts";

export interface ActionResults {
  saved: boolean;
  checkpointId: string | null;
  snapshotId: string | null;
  /** Actions that failed, one short line each. */
  failures: string[];
}

const ADVICE: Record<number, string> = {
  1: "Prefer targeted reads (line ranges, grep) over whole files and large command output.",
  2: "Finish the current task before starting new large reads; a /compact at the next natural break keeps the working state intact.",
  3: "Wrap up the current step now: note decisions and next steps in your reply, and avoid starting new large work before compaction.",
  4: "Compaction is imminent. Stop starting new work, summarise where things stand for the user, and ask them to run /compact now.",
};

export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${round1(tokens / 1_000_000)}M`;
  if (tokens >= 1_000) return `${round1(tokens / 1_000)}K`;
  return String(tokens);
}

const round1 = (n: number) => (Math.round(n * 10) / 10).toFixed(1).replace(/\.0$/, "");

/** The additionalContext for a notice (one paragraph, facts first, under 1,000 characters). */
export function formatGuardNotice(notice: GuardNotice, health: Health, done: ActionResults): string {
  const used = health.usedTokens ?? 0;
  const parts = [
    `ctx context guard (${notice.tier}): ${health.percentUsed ?? 0}% of the ${formatTokens(health.windowTokens)}-token window is in use (${formatTokens(used)} tokens); ` +
      `${health.percentRemaining ?? 0}% of the window remains before auto-compaction at ${formatTokens(health.autoCompactTokens)}.`,
  ];
  if (health.velocity !== null && health.velocity > 0) {
    const rate = `Recent tool calls used about ${health.velocity}% of the window each`;
    parts.push(
      health.forecastOperations === null
        ? `${rate}.`
        : `${rate}: about ${health.forecastOperations} more before auto-compaction.`,
    );
  }
  if (notice.reason === "velocity") parts.push("Context is filling unusually fast.");
  const kept: string[] = [];
  if (done.saved) kept.push("saved the working state");
  if (done.checkpointId !== null) kept.push(`wrote checkpoint ${done.checkpointId}`);
  if (done.snapshotId !== null) kept.push(`took snapshot ${done.snapshotId}`);
  if (kept.length > 0) parts.push(`ctx ${kept.join(", ")}; it is restored after compaction.`);
  if (done.failures.length > 0) parts.push(`(ctx could not: ${done.failures.join("; ")})`);
  parts.push(ADVICE[notice.level] ?? "");
  return parts.filter((part) => part !== "").join(" ");
}

/** The user-facing one-liner (systemMessage) for the two highest tiers; null below them. */
export function formatGuardSystemMessage(notice: GuardNotice, health: Health): string | null {
  if (notice.level < 3) return null;
  const forecast =
    health.forecastOperations === null ? "" : `, ~${health.forecastOperations} tool calls to auto-compact`;
  return `ctx: context ${notice.tier}: ${health.percentUsed ?? 0}% used${forecast}.${notice.level === 4 ? " Consider /compact now." : ""}`;
}

export interface StatusLineFigures {
  usedTokens: number | null;
  windowTokens: number;
  autoCompactTokens: number;
  tier: string;
  velocity: number | null;
  forecastOperations: number | null;
}

/** One line: `ctx 72% used · warning · +1.2%/op · ~23 ops to compact`. */
export function formatStatusLine(figures: StatusLineFigures): string {
  if (figures.usedTokens === null) return `ctx ${formatTokens(figures.windowTokens)} window · ${figures.tier}`;
  const percent = Math.round((figures.usedTokens / figures.windowTokens) * 100);
  const parts = [
    `ctx ${percent}% used (${formatTokens(figures.usedTokens)}/${formatTokens(figures.windowTokens)})`,
    figures.tier,
  ];
  if (figures.velocity !== null) parts.push(`${figures.velocity >= 0 ? "+" : ""}${figures.velocity}%/op`);
  if (figures.forecastOperations !== null) parts.push(`~${figures.forecastOperations} ops to compact`);
  return parts.join(" · ");
}

export function formatHealthText(health: Health | null): string {
  if (health === null)
    return "context guard: no measurement yet (it runs after each tool call once `ctx init` wired the hooks)";
  const used = health.usedTokens === null ? "unknown (just compacted)" : `${formatTokens(health.usedTokens)} tokens`;
  const lines = [
    `context guard: ${health.tier} · ${used} of ${formatTokens(health.windowTokens)} (${health.percentUsed ?? "?"}% used, ` +
      `${health.percentRemaining ?? "?"}% left before auto-compaction at ${formatTokens(health.autoCompactTokens)})`,
    `  velocity: ${health.velocity === null ? "n/a" : `${health.velocity}% of the window per tool call`}${health.velocityAlarm ? " (alarm)" : ""}` +
      ` · forecast: ${health.forecastOperations === null ? "n/a" : `~${health.forecastOperations} tool calls to auto-compaction`}`,
    `  thresholds (% remaining): warning ${health.thresholds.warning}, advisory ${health.thresholds.advisory}, ` +
      `yellow ${health.thresholds.yellow}, critical ${health.thresholds.critical}`,
  ];
  const compaction = health.lastCompaction;
  if (compaction !== null) {
    const figures = [compaction.preTokens, compaction.postTokens].map((n) => (n === null ? "?" : formatTokens(n)));
    lines.push(
      `  last compaction: ${compaction.at ?? "?"} (${compaction.trigger ?? "detected"}, ${figures[0]} -> ${figures[1]})`,
    );
  }
  lines.push(`  session ${health.sessionId}, measured ${health.measuredAt}`);
  return `${lines.join("\n")}\n`;
}
