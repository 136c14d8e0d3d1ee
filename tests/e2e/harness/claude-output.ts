// Reading what the real Claude Code CLI printed or wrote: `claude mcp list` lines, the `Invalid settings`
// section of `claude doctor`, the `-p --output-format json` result, and where a session's transcript went.
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * The status `claude mcp list` printed for a server (`✔ Connected`, `✘ Failed to connect …`,
 * `⏸ Pending approval …`), or undefined when the server is not listed. Lines read `<name>: <command> - <status>`.
 */
export function mcpServerStatus(stdout: string, name: string): string | undefined {
  const line = stdout.split("\n").find((candidate) => candidate.startsWith(`${name}: `));
  if (line === undefined) return undefined;
  const separator = line.lastIndexOf(" - ");
  return separator === -1 ? line : line.slice(separator + 3).trim();
}

/** The problem lines of `claude doctor`'s `Invalid settings` section; empty when the section is absent. */
export function doctorInvalidSettings(stdout: string): string[] {
  const lines = stdout.split("\n");
  const start = lines.findIndex((line) => line.trim() === "Invalid settings");
  if (start === -1) return [];
  const problems: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") break;
    problems.push(line.replace(/^\s*-\s*/, ""));
  }
  // A present but empty section still means something was flagged: keep the heading so tests see it.
  return problems.length > 0 ? problems : ["Invalid settings"];
}

/** The fields of `claude -p --output-format json` that tests read; the rest pass through. */
export interface ClaudeJsonResult {
  type: string;
  subtype: string;
  is_error: boolean;
  num_turns: number;
  result?: string;
  session_id: string;
  permission_denials: unknown[];
  usage?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The JSON result object on stdout, or undefined when stdout holds none (e.g. the CLI crashed). */
export function parseJsonResult(stdout: string): ClaudeJsonResult | undefined {
  const line = stdout
    .split("\n")
    .map((candidate) => candidate.trim())
    .findLast((candidate) => candidate.startsWith("{"));
  if (line === undefined) return undefined;
  try {
    const parsed = JSON.parse(line) as ClaudeJsonResult;
    return parsed.type === "result" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `<home>/.claude/projects/<project key>/<sessionId>.jsonl`, found by name rather than by re-deriving the key. */
export async function findTranscript(home: string, sessionId: string): Promise<string | undefined> {
  const projects = join(home, ".claude", "projects");
  if (!existsSync(projects)) return undefined;
  for (const entry of await readdir(projects, { withFileTypes: true })) {
    const candidate = join(projects, entry.name, `${sessionId}.jsonl`);
    if (entry.isDirectory() && existsSync(candidate)) return candidate;
  }
  return undefined;
}
