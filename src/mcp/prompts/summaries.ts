// The Smart Context prompts: /mcp__ctx__summarize-all, summarize-from, clear-summaries and context-stats,
// the same text as the .claude/commands/*.md files `ctx init` writes (core/setup/init/summaries-commands.ts).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod/mini";
import {
  SUMMARIES_COMMAND_NAMES,
  summariesCommandDescription,
  summariesCommandInstructions,
} from "../../core/setup/init/summaries-commands.ts";

// prompts/list takes an argument's description from the schema's `description` property (see fork-detect.ts).
const ArgsArgument = Object.assign(z.optional(z.string()), {
  description:
    "What you would type after the slash command (a message uuid for summarize-from, `all` for clear-summaries).",
});

export function registerSummariesPrompts(server: McpServer): void {
  for (const name of SUMMARIES_COMMAND_NAMES) {
    server.registerPrompt(
      name,
      { title: `/${name}`, description: summariesCommandDescription(name), argsSchema: { args: ArgsArgument } },
      ({ args }) => ({
        messages: [
          { role: "user", content: { type: "text", text: summariesCommandInstructions(name, args?.trim() ?? "") } },
        ],
      }),
    );
  }
}
