// PreCompact's time limit and what running out of it answers: in the table (./table.ts) and in PreCompact's own
// entry (../handlers/pre-compact.ts), and loaded by both before the handler's code.
import type { Config } from "../../config/schema.ts";
import type { HookDefinition, HookOutcome } from "./types.ts";

function preCompactTimeoutOutcome(config: Config, limitMs: number): HookOutcome | null {
  const reason = `ctx could not save the context within ${limitMs} ms before compaction`;
  return config.hooks.blockCompactionOnSaveFailure
    ? {
        exitCode: 2,
        stderr: `${reason}; compaction blocked so nothing is lost (set hooks.blockCompactionOnSaveFailure to false to allow it)`,
      }
    : { stderr: reason };
}

/** Saving before a compaction may take longer on a huge transcript; running out of time is a failure to save, which
 *  blocks the compaction when the config says so (the user loses nothing either way). */
export const PRE_COMPACT_LIMITS: Pick<HookDefinition, "timeoutMs" | "onTimeout"> = {
  timeoutMs: (config) => Math.max(config.hooks.handlerTimeoutMs, 30_000),
  onTimeout: (config, limitMs) => preCompactTimeoutOutcome(config, limitMs),
};
