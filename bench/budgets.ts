// The budgets of whole ctx processes, as ratios to `node -e 0` timed in the same run (docs/performance.md says why
// and which bench measures each). One place for the numbers the benches report beside their figures.

/** The ratio of a median to the same run's `node -e 0` median, to two decimals. */
export function ratioToNode(medianMs: number, nodeMedianMs: number): number {
  return Math.round((medianMs / nodeMedianMs) * 100) / 100;
}

export const PROCESS_BUDGET_RATIOS = {
  /** `ctx hook post-tool-use` on a 50 MB transcript, flat in transcript size. */
  postToolUse: 1.6,
  /** `ctx hook session-start` with source `compact` (the re-injection). */
  sessionStartCompact: 2.5,
  /** `ctx hook pre-compact` on a 10 MB transcript (500 ms when the floor was 26 ms). */
  preCompact10MB: 19,
  /** `ctx hook session-end` (200 ms when the floor was 26 ms; Claude Code shares 1.5 s among SessionEnd hooks). */
  sessionEnd: 7.7,
  /** `ctx --version`. */
  cliVersion: 1.5,
  /** `ctx status`. */
  cliStatus: 2.5,
  /** A cold `ctx search --json --no-refresh` over 10,000 sessions, median. */
  coldSearch: 4,
} as const;
