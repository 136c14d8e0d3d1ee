// What the session index keeps of a tool call or a failed tool result: one short line (docs/fork-detect.md "What the
// session index reads": tool calls as a gist). `Edit src/a.ts`, `Bash: pnpm test`, `Grep parseTranscriptLine`.
// Results are not indexed (they are long and mostly noise); only what a failure says is, as `Error: …`: its first
// lines that say something (a shell's `Exit code 1` says nothing: `remote: error: GH013: … push protection` does).
// The output of a command the person ran (a slash command's, a `!` shell command's) is kept the same way, as
// `Output: …` on that command's line.
import { stripVTControlCharacters } from "node:util";
import { collapseWhitespace, truncateText } from "../transcript/text.ts";

const ARGUMENT_CHARS = 120;
/** What a failure's gist keeps: the errors people remember ("GH013 push protection", "ENOTFOUND") are in its first lines. */
const ERROR_CHARS = 160;
/** A shell's status line: it says the command failed, which `Error:` says already. */
const EXIT_STATUS = /^(?:error:\s*)?exit (?:code|status) -?\d+\.?$/i;
/** A line with fewer letters than this past its source's prefix (`remote:`, a rule of dashes) says nothing. */
const MIN_LETTERS = 3;
/** The program that printed a line, before what it says: `remote: `, `npm ERR! `. */
const SOURCE_PREFIX = /^[\w-]+(?::|!)\s*/u;
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

/**
 * `Error: <what it says>` for a failed result (its first lines that hold words, past a shell's exit status, up to
 * ERROR_CHARS), `Rejected by user` for a refused call; null when it says nothing.
 */
export function toolErrorGist(resultText: string): string | null {
  if (resultText.startsWith(REJECTED)) return "Rejected by user";
  const said = tellingLines(resultText.replace(/<\/?tool_use_error>/g, ""), true);
  return said === null ? null : `Error: ${said}`;
}

/** What Claude Code records of a slash command's output, or of the person's own `!` shell command. */
const COMMAND_OUTPUT = /^<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>/;
const OUTPUT_PART = /<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>([\s\S]*?)(?:<\/\1>|$)/g;

/**
 * `Output: <what it says>` for the output of a command the person ran (`/terminal-setup` printing "Option+Enter will
 * now enter a newline", `!pnpm test` failing), kept as a failure's gist is: its first lines that hold words, terminal
 * escapes removed, up to ERROR_CHARS. null for any other text, and for output that says nothing.
 */
export function commandOutputGist(text: string): string | null {
  if (!COMMAND_OUTPUT.test(text)) return null;
  const parts = [...text.matchAll(OUTPUT_PART)].map((match) => match[2] ?? "");
  const said = tellingLines(stripVTControlCharacters(parts.join("\n")), false);
  return said === null ? null : `Output: ${said}`;
}

/** A text's first lines that say something, joined, up to ERROR_CHARS; with `orFirst`, its first line when none does. */
function tellingLines(text: string, orFirst: boolean): string | null {
  const lines = text
    .slice(0, 16 * ERROR_CHARS)
    .split("\n")
    .map((line) => collapseWhitespace(line))
    .filter((line) => line !== "");
  if (lines.length === 0) return null;
  const telling = lines.filter(
    (line) => !EXIT_STATUS.test(line) && countLetters(line.replace(SOURCE_PREFIX, "")) >= MIN_LETTERS,
  );
  if (telling.length === 0 && !orFirst) return null;
  return truncateText(telling.length > 0 ? telling.join(" ") : (lines[0] as string), ERROR_CHARS);
}

function countLetters(line: string): number {
  let letters = 0;
  for (const char of line) if (/\p{L}/u.test(char) && ++letters >= MIN_LETTERS) break;
  return letters;
}
