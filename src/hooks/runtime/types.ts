// What every hook handler receives and answers, and the shape of a definition: imported by the loader, the
// dispatcher and each handler, so that the handlers (loaded lazily by ./table.ts) never import the loader itself.
// No zod here: the lean events load none (./compiled-check.ts).
import type { Config } from "../../config/schema.ts";
import type { HookEvent } from "../../core/hooks/events.ts";
import type { Logger } from "../../log.ts";

export interface HookDeps {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  logger: Logger;
  /** The project the session works on (CLAUDE_PROJECT_DIR, else found from the input's cwd). */
  projectRoot: string;
  config: Config;
  /** This program's entry (dist/ctx.js), for detached children such as snapshot recompression. */
  cliPath: string;
}

/** What a handler asks the process to do; null = exit 0, print nothing. */
export interface HookOutcome {
  /** The hook reply: an object is printed as JSON, a string as plain text. */
  reply?: Record<string, unknown> | string;
  /** 2 only where blocking is the feature (PreCompact whose state could not be saved). */
  exitCode?: 0 | 2;
  stderr?: string;
}

/** A hook's stdin JSON checked against its event's shape: the input, or what is wrong with it ("tool_name: expected
 *  string"). */
export type HookInputCheck<T> = { ok: true; input: T } | { ok: false; problem: string };

export interface HookDefinition<T = unknown> {
  /** Checks the event's input (./compiled-check.ts, from the checker compiled from its schema in ./schemas.ts). */
  check: (raw: unknown) => HookInputCheck<T>;
  handle: (input: T, deps: HookDeps) => Promise<HookOutcome | null>;
  /** This event's time limit, when it differs from `hooks.handlerTimeoutMs`. */
  timeoutMs?: (config: Config) => number;
  /** What a handler that ran out of time answers (default: nothing, exit 0). */
  onTimeout?: (config: Config, limitMs: number) => HookOutcome | null;
}

/** An event's definition, loaded when it runs (./table.ts loadHook; an entry or a test may answer some itself); undefined:
 *  this entry does not run that event. */
export type HookLoader = (event: HookEvent) => Promise<HookDefinition | undefined>;

/** A table entry from an input check and the handler that takes what it checked. */
export function hookOf<T>(
  check: (raw: unknown) => HookInputCheck<T>,
  handle: (input: T, deps: HookDeps) => Promise<HookOutcome | null>,
  extra: Pick<HookDefinition, "timeoutMs" | "onTimeout"> = {},
): HookDefinition {
  return { check, handle: handle as HookDefinition["handle"], ...extra };
}
