// A hook table entry's input check from the checker compiled from its event's zod schema (./schemas.compiled.ts,
// build/compile-schemas.ts), so that no hook loads zod to check its input. Its problem is the first one only, told
// as core/schema/issue.ts tells any issue: "tool_name: expected string".
import type { SchemaCheck } from "../../core/schema/compile.ts";
import { describeIssue } from "../../core/schema/issue.ts";
import type { HookInputCheck } from "./types.ts";

export function compiledHookCheck<T>(check: (raw: unknown) => SchemaCheck<T>): (raw: unknown) => HookInputCheck<T> {
  return (raw) => {
    const checked = check(raw);
    return checked.ok ? { ok: true, input: checked.value } : { ok: false, problem: describeIssue(checked.issue) };
  };
}
