// A hook table entry from its event's zod schema (./schemas.ts): the input check says what is wrong in one short
// phrase, the first problem only ("tool_name: expected string", "session_id: holds a control character").
import * as z from "zod/mini";
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
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "input";
  const what =
    issue?.code === "invalid_type"
      ? `expected ${issue.expected}`
      : issue?.code === "invalid_format"
        ? issue.message
        : (issue?.code ?? "invalid");
  return { ok: false, problem: `${where}: ${what}` };
}
