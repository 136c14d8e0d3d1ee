// The `/fork-detect` slash command, written by `ctx init` into .claude/commands/ and shipped in the plugin's
// commands/. A hash line in the frontmatter records what ctx wrote, so ctx updates its own unmodified file
// and never overwrites one the person edited.
import { createHash } from "node:crypto";

const MARKER_PREFIX = "# ctx-generated sha256:";

// The plugin-bundled server's tools are named mcp__plugin_<plugin>_<server>__<tool> (Claude Code docs),
// so one file serves both installs by naming both.
const TOOL = "mcp__ctx__ctx_fork_detect";
const PLUGIN_TOOL = "mcp__plugin_ctx_ctx__ctx_fork_detect";

const FRONTMATTER = [
  "description: Find the past Claude Code session to fork from (ctx)",
  "argument-hint: <what you are about to work on>",
  `allowed-tools: ${TOOL}, ${PLUGIN_TOOL}`,
];

const BODY = `Call the ctx tool \`${TOOL}\` (named \`${PLUGIN_TOOL}\` when ctx is installed as a Claude Code plugin) with \`query\` set to:

$ARGUMENTS

If that query is empty, use one sentence that sums up what we are working on in this conversation.

Present the ranked sessions it returns as a numbered list, best match first: the session's title or first prompt, its project directory, when it was last active, its score, and what matched. Under each session, show its fork command exactly as the tool returned it, in its own code block, so I can copy and paste it (it resumes that session from its own directory as a new fork). Do not run the fork commands yourself.

If the tool finds no session, or returns an error, say so and show its hint.
`;

function hashOf(content: string): string {
  return createHash("sha256").update(content.replace(/\r\n/g, "\n")).digest("hex").slice(0, 16);
}

function assemble(markerLine: string | null): string {
  const front = markerLine === null ? FRONTMATTER : [...FRONTMATTER, markerLine];
  return `---\n${front.join("\n")}\n---\n${BODY}`;
}

/** The file's exact content (the same bytes for `ctx init` and the plugin). */
export function renderForkDetectCommand(): string {
  return assemble(`${MARKER_PREFIX}${hashOf(assemble(null))}`);
}

/** True when the file is one ctx wrote (any version) and nobody changed it since. */
export function isUnmodifiedCtxFile(content: string): boolean {
  const lines = content.split("\n");
  const at = lines.findIndex((line) => line.startsWith(MARKER_PREFIX));
  if (at < 0) return false;
  const recorded = lines[at]?.slice(MARKER_PREFIX.length).trim();
  const without = [...lines.slice(0, at), ...lines.slice(at + 1)].join("\n");
  return recorded === hashOf(without);
}
