// Turns a failed schema check into one readable line naming the field. zod/mini ships no message
// locale (that is what keeps it small), so the line is built from the issue's code and the value found.
import type { $ZodIssue } from "zod/v4/core";

/** e.g. `field files.3.size: expected number, found string (and 2 more problems)`. */
export function describeIssues(issues: readonly $ZodIssue[], value: unknown): string {
  const [first] = issues;
  if (first === undefined) return "does not match its schema";
  const field = first.path.length === 0 ? "the top-level value" : `field ${first.path.map(String).join(".")}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
  return `${field}: ${describeIssue(first, value)}${more}`;
}

function describeIssue(issue: $ZodIssue, root: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}, found ${typeName(valueAt(root, issue.path))}`;
    case "unrecognized_keys":
      return `unexpected keys ${issue.keys.join(", ")}`;
    case "too_small":
      return `below the minimum of ${String(issue.minimum)}`;
    case "too_big":
      return `above the maximum of ${String(issue.maximum)}`;
    default:
      return issue.message === "Invalid input" ? issue.code.replaceAll("_", " ") : issue.message;
  }
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
