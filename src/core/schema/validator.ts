// What the state files' readers and writers check a value with: a zod schema, or a checker compiled from one at build
// time (build/compile-schemas.ts writes `check<Name>` into `*.compiled.ts` beside the schema). A zod schema is run
// through its Standard Schema surface (`~standard.validate`), so this module, and a path whose schemas are all
// compiled, loads no zod.
import type { SchemaCheck } from "./compile.ts";
import type { SchemaIssue } from "./issue.ts";

/** A checker compiled from a zod schema: the value as zod returns it, or zod's first issue. */
export type SchemaChecker<T> = (value: unknown) => SchemaCheck<T>;

/** The part of a zod schema this module uses (zod returns its own issues there, code and path included). */
export interface StandardSchema<T> {
  readonly "~standard": {
    validate(value: unknown): StandardResult<T> | Promise<StandardResult<T>>;
    readonly types?: { readonly output: T } | undefined;
  };
}

type StandardResult<T> =
  | { readonly value: T; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string }> };

export type Validator<T> = SchemaChecker<T> | StandardSchema<T>;

/** The value a validator gives. */
export type ValidatedBy<V> = V extends SchemaChecker<infer T> ? T : V extends StandardSchema<infer T> ? T : never;

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: readonly SchemaIssue[] };

/** Checks `value` (zod's value, with its defaults and without the keys it strips; or its issues, the first first). */
export function validate<T>(validator: Validator<T>, value: unknown): Validation<T> {
  if (typeof validator === "function") {
    const checked = validator(value);
    return checked.ok ? checked : { ok: false, issues: [checked.issue] };
  }
  const result = validator["~standard"].validate(value);
  if (result instanceof Promise) throw new Error("an asynchronous schema cannot check a state file");
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, issues: result.issues as unknown as readonly SchemaIssue[] };
}
