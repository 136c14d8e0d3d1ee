// What every hook handler receives and answers, and the shape of a table entry (and `defineHook`, which makes
// one): imported by the tables, the dispatcher and each handler, so that the handlers (loaded lazily by the table)
// never import the table itself.
import type * as z from "zod/mini";
import type { Config } from "../config/schema.ts";
import type { Logger } from "../log.ts";
import type { HookEvent } from "./schemas.ts";

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

export interface HookDefinition<S extends z.ZodMiniType = z.ZodMiniType> {
  /** The event's input schema, built on first call. */
  schema: () => S;
  handle: (input: z.output<S>, deps: HookDeps) => Promise<HookOutcome | null>;
  /** This event's time limit, when it differs from `hooks.handlerTimeoutMs`. */
  timeoutMs?: (config: Config) => number;
  /** What a handler that ran out of time answers (default: nothing, exit 0). */
  onTimeout?: (config: Config, limitMs: number) => HookOutcome | null;
}

/** Event -> definition. The whole table (./table.ts) or the every-call hooks' part of it (./every-call.ts). */
export type HookTable = Partial<Record<HookEvent, HookDefinition>>;

export function defineHook<S extends z.ZodMiniType>(
  schema: () => S,
  handle: (input: z.output<S>, deps: HookDeps) => Promise<HookOutcome | null>,
  extra: Pick<HookDefinition, "timeoutMs" | "onTimeout"> = {},
): HookDefinition {
  return { schema, handle: handle as HookDefinition["handle"], ...extra };
}
