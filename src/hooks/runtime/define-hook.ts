// A hook table entry from its event's zod schema (./schemas.ts): the input check says what is wrong in one short
// phrase, the first problem only ("tool_name: expected string", "session_id: holds a control character"; the
// entries that load no zod check with a checker compiled from the same schema and tell it the same way:
// ./compiled-check.ts).
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
