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
  `allowed-tools: ${TOOL}, ${PLUGIN_TOOL}, AskUserQuestion`,
];

/**
 * The steps Claude follows for /fork-detect, shared by the slash command file and the MCP prompt.
 * `request` is what the person typed (`$ARGUMENTS` in the command file).
 */
export function forkDetectInstructions(request: string): string {
  return `Find the past Claude Code session I should fork from, with ctx.

What I want to work on: ${request}

1. If that is empty, ask me in one short question what I want to work on, and wait for my answer.
2. Call the ctx tool \`${TOOL}\` (named \`${PLUGIN_TOOL}\` when ctx is installed as a Claude Code plugin) with \`query\` set to what I want to work on. Pass \`project\` only if I named a project ("this" means this project). Pass \`scope\` only if I asked about my team's or teammates' sessions: "all" for mine and the team's together, "team" for the team's only (otherwise my \`search.scope\` setting decides).
3. If it returns sessions, ask me with the AskUserQuestion tool, one question: "Which session do you want to fork from?", with up to 4 options: the top 3 sessions as a numbered list of options, best match first (label: the session's topic in at most 5 words; description: its score, when it was last active, its project, its author for a teammate's session, and what matched), then "None - start fresh" (description: "Start this work in a new session"). Claude Code adds a "Type something" option itself.
4. For a session I pick, show its fork command exactly as the tool returned it, in its own code block so I can copy and paste it into a terminal (it resumes that session from its own directory as a new fork), and the in-session alternative the tool gives. A teammate's session forks with the \`ctx fork\` command the tool gives (it fetches the redacted transcript first). Mention any warning the tool gave for it (for example a transcript close to Claude Code's cleanup). For "None - start fresh", say so and carry on here. If I type something else, use it as a refined query and search again.
5. If the tool finds no session above its threshold, say so and offer three choices: refine the query, start fresh, or list recent sessions (\`ctx status\`). If it returns an error, show its hint; if it notes that team results were left out, say so in one line.

Do not run the fork commands yourself.
`;
}

const BODY = forkDetectInstructions("$ARGUMENTS");

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
