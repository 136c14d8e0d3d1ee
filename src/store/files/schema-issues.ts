// Turns a failed schema check into one readable line naming the field. zod/mini ships no message
// locale (that is what keeps it small), so the line is built from the issue's code and the value found.
import type { SchemaIssue } from "../../core/schema/issue.ts";

/** A zod issue (any), or a compiled checker's (core/schema/validator.ts), which carries no keys or bounds. */
export interface DescribedIssue extends SchemaIssue {
  keys?: readonly string[];
  minimum?: unknown;
  maximum?: unknown;
}

/** e.g. `field files.3.size: expected number, found string (and 2 more problems)`. */
export function describeIssues(issues: readonly DescribedIssue[], value: unknown): string {
  const [first] = issues;
  if (first === undefined) return "does not match its schema";
  const field = first.path.length === 0 ? "the top-level value" : `field ${first.path.map(String).join(".")}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
  return `${field}: ${describeIssue(first, value)}${more}`;
}

function describeIssue(issue: DescribedIssue, root: unknown): string {
  if (issue.code === "invalid_type") {
    return `expected ${issue.expected ?? "another type"}, found ${typeName(valueAt(root, issue.path))}`;
  }
  if (issue.code === "unrecognized_keys" && issue.keys !== undefined) return `unexpected keys ${issue.keys.join(", ")}`;
  if (issue.code === "too_small" && issue.minimum !== undefined) return `below the minimum of ${String(issue.minimum)}`;
  if (issue.code === "too_big" && issue.maximum !== undefined) return `above the maximum of ${String(issue.maximum)}`;
  return issue.message === "Invalid input" ? issue.code.replaceAll("_", " ") : issue.message;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function typeName(value: unknown): string {
  if (value === undefined) return "nothing (missing)";
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Uint8Array) return "bytes";
  return typeof value;
}
