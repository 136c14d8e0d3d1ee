// A zod schema's plan (./plan.ts) compiled into plain JavaScript, without zod: straight-line code with no closures
// to build and no zod machinery to run. At build time, build/compile-schemas.ts writes the checkers of the schemas
// that paths loading no zod check with (every hook's input, the state files the hooks read, the transcript's lines)
// into `*.compiled.ts` modules; `compileChecker` compiles one now, for the tests. A compiled checker accepts exactly what the schema accepts and returns the same value zod returns (the same keys in
// the same order: the shape's first, then the unknown ones a loose object passes through, never `__proto__`), or
// zod's first issue (its code, path, expected type and message). ./compile.test.ts and ./checker.test.ts compare
// both with zod.
import type { SchemaIssue } from "./issue.ts";
import type { SchemaPlan } from "./plan.ts";

/** What a union's option returns, inside a compiled checker, for a value it rejects. */
const INVALID: unique symbol = Symbol("invalid");

/** A value checked by a compiled checker: zod's value, or zod's first issue. */
export type SchemaCheck<T> = { ok: true; value: T } | { ok: false; issue: SchemaIssue };

/** A plan as a checker, compiled now (build/compile-schemas.ts writes `checkerSource(plan)` into a module instead). */
export function compileChecker<T>(plan: SchemaPlan): (value: unknown) => SchemaCheck<T> {
  return instantiate(checkerSource(plan, "check"));
}

function instantiate<F>(source: string): F {
  // The source is built here from a plan's plain data: keys and literals through JSON.stringify, patterns through
  // RegExp; nothing else is interpolated.
  return new Function("INVALID", `return ${source}(INVALID);`)(INVALID) as F;
}

/**
 * JavaScript for a function of INVALID (the value a validator rejects with) returning the compiled function.
 * `check`: `{ ok: true, value }` or `{ ok: false, issue }`, zod's first issue. `validate`: the value or INVALID.
 */
export function checkerSource(plan: SchemaPlan, mode: "check" | "validate" = "check"): string {
  const emitter = new Emitter();
  const body: string[] = [];
  const result = emitter.node(plan, "value", [], mode === "check" ? checkFailure : validateFailure, body);
  const done = mode === "check" ? `return { ok: true, value: ${result} };` : `return ${result};`;
  return [
    "(function (INVALID) {",
    '  const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);',
    "  const fail = (code, expected, message, path) =>",
    "    ({ ok: false, issue: expected === undefined ? { code, path, message } : { code, path, message, expected } });",
    ...emitter.hoisted.map((line) => `  ${line}`),
    "  return function (value) {",
    ...body.map((line) => `    ${line}`),
    `    ${done}`,
    "  };",
    "})",
  ].join("\n");
}

/** A statement that rejects: code, expected and message as JavaScript expressions, the path as expressions. */
type Failure = (code: string, expected: string, message: string, path: string[]) => string;

const checkFailure: Failure = (code, expected, message, path) =>
  `return fail(${code}, ${expected}, ${message}, [${path.join(", ")}]);`;
const validateFailure: Failure = () => "return INVALID;";

const text = (value: string) => JSON.stringify(value);
const UNDEFINED = "undefined";
const INVALID_INPUT = text("Invalid input");

class Emitter {
  /** Declarations made once per compiled function: patterns, key sets, union options. */
  readonly hoisted: string[] = [];
  private count = 0;

  private name(prefix: string): string {
    this.count += 1;
    return `${prefix}${this.count}`;
  }

  /** Statements into `out` that check `input` (a JavaScript expression) against `plan`; returns the result's name. */
  node(plan: SchemaPlan, input: string, path: string[], fail: Failure, out: string[]): string {
    const reject = (code: string, expected = UNDEFINED, message = INVALID_INPUT) =>
      fail(text(code), expected === UNDEFINED ? UNDEFINED : text(expected), message, path);
    switch (plan.kind) {
      case "string": {
        out.push(`if (typeof ${input} !== "string") ${reject("invalid_type", "string")}`);
        for (const check of plan.checks ?? []) {
          if (check.check === "min_length") out.push(`if (${input}.length < ${check.minimum}) ${reject("too_small")}`);
          else if (check.check === "max_length")
            out.push(`if (${input}.length > ${check.maximum}) ${reject("too_big")}`);
          else {
            const pattern = this.name("pattern");
            this.hoisted.push(`const ${pattern} = new RegExp(${text(check.source)}, ${text(check.flags)});`);
            out.push(`if (!${pattern}.test(${input})) ${reject("invalid_format", UNDEFINED, text(check.message))}`);
          }
        }
        return input;
      }
      case "number":
        out.push(`if (typeof ${input} !== "number" || !Number.isFinite(${input})) ${reject("invalid_type", "number")}`);
        if (plan.integer === true) {
          out.push(`if (!Number.isSafeInteger(${input})) {`);
          out.push(`  if (!Number.isInteger(${input})) ${reject("invalid_type", "int")}`);
          out.push(`  ${fail(`${input} > 0 ? "too_big" : "too_small"`, UNDEFINED, INVALID_INPUT, path)}`);
          out.push("}");
        }
        return input;
      case "boolean":
        out.push(`if (typeof ${input} !== "boolean") ${reject("invalid_type", "boolean")}`);
        return input;
      case "unknown":
        return input;
      case "literal": {
        const differs = plan.values.map((value) => `${input} !== ${JSON.stringify(value)}`).join(" && ");
        out.push(`if (${differs || "true"}) ${reject("invalid_value")}`);
        return input;
      }
      case "optional":
      case "nullable": {
        const result = this.name("r");
        const empty = plan.kind === "optional" ? UNDEFINED : "null";
        out.push(`let ${result} = ${empty};`, `if (${input} !== ${empty}) {`);
        const inner: string[] = [];
        out.push(...indent(inner, this.node(plan.inner, input, path, fail, inner), result));
        out.push("}");
        return result;
      }
      case "union": {
        // An option that fails says nothing: zod reports the union's own issue (./plan.ts compiles no other case).
        const options = plan.options.map((option) => {
          const name = this.name("option");
          const body: string[] = [];
          const parsed = this.node(option, "v", [], validateFailure, body);
          this.hoisted.push(`function ${name}(v) {`, ...body.map((line) => `  ${line}`), `  return ${parsed};`, "}");
          return name;
        });
        const result = this.name("r");
        out.push(`let ${result} = INVALID;`);
        for (const option of options) out.push(`if (${result} === INVALID) ${result} = ${option}(${input});`);
        out.push(`if (${result} === INVALID) ${reject("invalid_union")}`);
        return result;
      }
      case "array": {
        const result = this.name("r");
        const index = this.name("i");
        out.push(`if (!Array.isArray(${input})) ${reject("invalid_type", "array")}`);
        out.push(`const ${result} = new Array(${input}.length);`);
        out.push(`for (let ${index} = 0; ${index} < ${input}.length; ${index}++) {`);
        const element = this.name("e");
        const inner = [`const ${element} = ${input}[${index}];`];
        out.push(
          ...indent(inner, this.node(plan.element, element, [...path, index], fail, inner), `${result}[${index}]`),
        );
        out.push("}");
        return result;
      }
      case "record": {
        const result = this.name("r");
        const key = this.name("k");
        out.push(`if (!isObject(${input})) ${reject("invalid_type", "record")}`);
        out.push(`const ${result} = {};`);
        // `__proto__` (a key JSON.parse can give) is left out: as a key it would set the prototype.
        out.push(`for (const ${key} of Object.keys(${input})) {`, `  if (${key} === "__proto__") continue;`);
        const element = this.name("e");
        const inner = [`const ${element} = ${input}[${key}];`];
        out.push(...indent(inner, this.node(plan.value, element, [...path, key], fail, inner), `${result}[${key}]`));
        out.push("}");
        return result;
      }
      case "object": {
        const result = this.name("r");
        out.push(`if (!isObject(${input})) ${reject("invalid_type", "object")}`);
        out.push(`const ${result} = {};`);
        for (const field of plan.fields) {
          const key = text(field.key);
          const value = this.name("f");
          const fieldPath = [...path, key];
          const inner = [`const ${value} = ${input}[${key}];`];
          const parsed = this.node(field.plan, value, fieldPath, fail, inner);
          // Absent and required: zod reads it as undefined, which names the type expected, or (a schema that takes
          // undefined, such as unknown) is refused as absent.
          if (!field.optional && acceptsUndefined(field.plan))
            inner.push(
              `if (!(${key} in ${input})) ${fail(text("invalid_type"), text("nonoptional"), INVALID_INPUT, fieldPath)}`,
            );
          const assign = `${result}[${key}]`;
          if (field.optional) out.push(`if (${key} in ${input}) {`, ...indent(inner, parsed, assign), "}");
          else out.push(`{`, ...indent(inner, parsed, assign), "}");
        }
        if (plan.passThrough) {
          const known = this.name("known");
          const key = this.name("k");
          this.hoisted.push(`const ${known} = new Set(${JSON.stringify(plan.fields.map((field) => field.key))});`);
          out.push(`for (const ${key} in ${input}) {`);
          out.push(`  if (${key} === "__proto__" || ${known}.has(${key})) continue;`);
          out.push(`  ${result}[${key}] = ${input}[${key}];`, "}");
        }
        return result;
      }
    }
  }
}

/** A block's statements, then its result assigned, indented one level. */
function indent(lines: string[], result: string, target: string): string[] {
  return [...lines, `${target} = ${result};`].map((line) => `  ${line}`);
}

function acceptsUndefined(plan: SchemaPlan): boolean {
  if (plan.kind === "unknown" || plan.kind === "optional") return true;
  if (plan.kind === "union") return plan.options.some(acceptsUndefined);
  return false;
}
