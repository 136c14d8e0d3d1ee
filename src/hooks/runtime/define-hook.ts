// A hook table entry checked with its event's zod schema itself: for a new event's handler, which declares its input
// schema beside it (ARCHITECTURE.md "A hook"). The events ctx ships check with the checkers compiled from their
// schemas (./compiled-check.ts, build/compile-schemas.ts), so that no hook loads zod for its input; both say what is
// wrong the same way, the first problem only ("tool_name: expected string", "session_id: holds a control character").
import * as z from "zod/mini";
import { describeIssue } from "../../core/schema/issue.ts";
import { type HookDefinition, type HookDeps, type HookInputCheck, type HookOutcome, hookOf } from "./types.ts";

export function defineHook<S extends z.ZodMiniType>(
  schema: () => S,
  handle: (input: z.output<S>, deps: HookDeps) => Promise<HookOutcome | null>,
  extra: Pick<HookDefinition, "timeoutMs" | "onTimeout"> = {},
): HookDefinition {
  return hookOf((raw) => checkWithSchema(schema(), raw), handle, extra);
}

export function checkWithSchema<S extends z.ZodMiniType>(schema: S, raw: unknown): HookInputCheck<z.output<S>> {
  const parsed = z.safeParse(schema, raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, problem: describeIssue(parsed.error.issues[0]) };
}
