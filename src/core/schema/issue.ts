// The first problem with a checked value, in one short phrase ("tool_name: expected string", "session_id: holds a
// control character"): the same words from a zod issue and from a compiled checker's (./compile.ts), which copies
// zod's code, path, expected type and message.

/** The part of a zod issue a problem is told from (a zod issue is one). */
export interface SchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  expected?: string;
  message: string;
}

/** `<path>: <what>`: the path dotted ("input" for the value itself); what was expected, the check's message, or the
 *  issue's code. */
export function describeIssue(issue: SchemaIssue | undefined): string {
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "input";
  const what =
    issue?.code === "invalid_type"
      ? `expected ${issue.expected}`
      : issue?.code === "invalid_format"
        ? issue.message
        : (issue?.code ?? "invalid");
  return `${where}: ${what}`;
}
