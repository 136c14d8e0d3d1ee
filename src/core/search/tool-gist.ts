// What the session index keeps of a tool call or a failed tool result: one short line (docs/fork-detect.md "What the
// session index reads": tool calls as a gist). `Edit src/a.ts`, `Bash: pnpm test`, `Grep parseTranscriptLine`.
// Results are not indexed (they are long and mostly noise); only a failure's first line is, as `Error: …`.
import { collapseWhitespace, truncateText } from "../transcript/text.ts";

const ARGUMENT_CHARS = 120;
const ERROR_CHARS = 100;
/** The input fields that say what a call was about, most telling first (commands get `Name: command`). */
const TARGET_FIELDS = [
  "file_path",
  "notebook_path",
  "pattern",
  "path",
  "url",
  "query",
  "skill",
  "description",
  "subject",
] as const;

/** `Edit src/a.ts`, `Bash: pnpm test`, or just the tool's name when its input says nothing short. */
export function toolCallGist(name: string, input: unknown): string {
  const tool = collapseWhitespace(name) || "tool";
  if (input === null || typeof input !== "object") return tool;
  const record = input as Record<string, unknown>;
  const command = record.command;
  if (typeof command === "string" && command.trim() !== "") {
    return `${tool}: ${truncateText(collapseWhitespace(command), ARGUMENT_CHARS)}`;
  }
  for (const field of TARGET_FIELDS) {
    const value = record[field];
    if (typeof value === "string" && value.trim() !== "") {
      return `${tool} ${truncateText(collapseWhitespace(value), ARGUMENT_CHARS)}`;
    }
  }
  return tool;
}

const REJECTED = "The user doesn't want to proceed with this tool use";

/** `Error: <first line>` for a failed result, `Rejected by user` for a refused call; null when it says nothing. */
export function toolErrorGist(resultText: string): string | null {
  if (resultText.startsWith(REJECTED)) return "Rejected by user";
  const text = resultText.replace(/<\/?tool_use_error>/g, "");
  const firstLine = text
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "");
  if (firstLine === undefined) return null;
  return `Error: ${truncateText(collapseWhitespace(firstLine), ERROR_CHARS)}`;
}
