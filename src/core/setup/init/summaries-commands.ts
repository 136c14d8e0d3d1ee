// The slash commands that call one ctx MCP tool each: the Smart Context document's (/summarize-all, /summarize-from
// <id>, /clear-summaries, /context-stats) and the session index's (/stats, /reindex: ctx_index), written by
// `ctx init` into .claude/commands/ and shipped in the plugin's commands/, each
// calling the matching ctx MCP tool; the MCP prompts of the same names carry the same text. A hash line in
// the frontmatter records what ctx wrote, so ctx updates its own unmodified files and never overwrites a
// file the person wrote or edited (the same rule as /fork-detect).
import { createHash } from "node:crypto";

const MARKER_PREFIX = "# ctx-generated sha256:";

export const SUMMARIES_COMMAND_NAMES = [
  "summarize-all",
  "summarize-from",
  "clear-summaries",
  "context-stats",
  "stats",
  "reindex",
] as const;
export type SummariesCommandName = (typeof SUMMARIES_COMMAND_NAMES)[number];

interface CommandSpec {
  description: string;
  argumentHint: string | null;
  tool: string;
  /** The steps, given what the person typed after the command (`$ARGUMENTS` in the file). */
  steps: (args: string) => string;
}

// The plugin-bundled server's tools are named mcp__plugin_ctx_ctx__<tool>: each file names both installs.
const tools = (tool: string) => `mcp__ctx__${tool}, mcp__plugin_ctx_ctx__${tool}`;
const named = (tool: string) =>
  `the ctx tool \`mcp__ctx__${tool}\` (named \`mcp__plugin_ctx_ctx__${tool}\` when ctx is installed as a Claude Code plugin)`;

const SPECS: Record<SummariesCommandName, CommandSpec> = {
  "summarize-all": {
    description: "Summarise this whole conversation message by message and show the assembled context (ctx)",
    argumentHint: null,
    tool: "ctx_summarize",
    steps: () =>
      `Summarise this whole conversation with ctx.

1. Call ${named("ctx_summarize")} with no arguments: it summarises every message of this session that has no summary yet (each message knowing its neighbours), keeps them, and returns the assembled context (the recent messages verbatim, the ones before summarised, the oldest folded).
2. Tell me in two or three lines how many messages were summarised now and reused, the provider, and the compression (assembled tokens of the original), with any warning it gave. Do not repeat the assembled text unless I ask for it.
3. If it returns an error, show its hint.
`,
  },
  "summarize-from": {
    description: "Summarise this conversation again from one message on (ctx)",
    argumentHint: "<message uuid>",
    tool: "ctx_summarize",
    steps: (args) =>
      `Summarise this conversation again from one message on, with ctx.

The message to start from: ${args}

1. If that is empty, ask me in one short question for the message uuid (\`ctx summaries\` and the transcript show them), and wait for my answer.
2. Call ${named("ctx_summarize")} with \`from\` set to that uuid: every summary from that message on is made again and kept.
3. Tell me in two or three lines how many messages were summarised again, the provider and the compression, with any warning it gave. If it returns an error (an unknown uuid, say), show its hint.
`,
  },
  "clear-summaries": {
    description: "Delete this conversation's stored summaries; they are made again when needed (ctx)",
    argumentHint: "[all]",
    tool: "ctx_clear_summaries",
    steps: (args) =>
      `Delete stored conversation summaries with ctx.

What to clear: ${args}

1. Call ${named("ctx_clear_summaries")}: with \`all: true\` if what to clear says "all" (every session of this project), else with no arguments (this session only).
2. Tell me which summaries files were removed, or that there were none. They are made again the next time a summary is needed; nothing else is deleted.
`,
  },
  "context-stats": {
    description: "Show how this conversation compresses: tokens per summary layer and the ratio (ctx)",
    argumentHint: null,
    tool: "ctx_context_stats",
    steps: () =>
      `Show the context statistics of this conversation with ctx.

1. Call ${named("ctx_context_stats")} with no arguments.
2. Show me its report as it is: the messages and tokens of each layer (older folded, middle summarised, recent verbatim), the compression ratio, the budget, the stored summaries and the last reply's real context size. If it returns an error, show its hint.
`,
  },
  stats: {
    description:
      "Show what ctx's session index holds: sessions per project and month, size, last sync, duplicates (ctx)",
    argumentHint: null,
    tool: "ctx_index",
    steps: () =>
      `Show the statistics of ctx's session index (the past sessions /fork-detect searches).

1. Call ${named("ctx_index")} with \`op: "stats"\`.
2. Show me its report as it is: sessions, projects, index size, last sync, the duplicate sessions it found, the last rebuild, and the sessions per project and per month. If it returns an error, show its hint.
`,
  },
  reindex: {
    description: "Rebuild ctx's session index from Claude Code's transcripts, in the background (ctx)",
    argumentHint: null,
    tool: "ctx_index",
    steps: () =>
      `Rebuild ctx's session index (the past sessions /fork-detect searches) from the transcripts.

1. Call ${named("ctx_index")} with \`op: "reindex"\`: it starts the rebuild in the background and answers at once (or reports the one already running).
2. Tell me in one or two lines that the rebuild started (or is running) and how far it got. Searches keep working on what is indexed meanwhile; /stats shows its progress. If it returns an error, show its hint.
`,
  },
};

/** The steps Claude follows, shared by the slash command file and the MCP prompt of the same name. */
export function summariesCommandInstructions(name: SummariesCommandName, args: string): string {
  return SPECS[name].steps(args);
}

export function summariesCommandDescription(name: SummariesCommandName): string {
  return SPECS[name].description;
}

function hashOf(content: string): string {
  return createHash("sha256").update(content.replace(/\r\n/g, "\n")).digest("hex").slice(0, 16);
}

function assemble(name: SummariesCommandName, markerLine: string | null): string {
  const spec = SPECS[name];
  const front = [
    `description: ${spec.description}`,
    ...(spec.argumentHint === null ? [] : [`argument-hint: ${spec.argumentHint}`]),
    `allowed-tools: ${tools(spec.tool)}`,
    ...(markerLine === null ? [] : [markerLine]),
  ];
  return `---\n${front.join("\n")}\n---\n${spec.steps("$ARGUMENTS")}`;
}

/** The command file's exact content (the same bytes for `ctx init` and the plugin). */
export function renderSummariesCommand(name: SummariesCommandName): string {
  return assemble(name, `${MARKER_PREFIX}${hashOf(assemble(name, null))}`);
}
