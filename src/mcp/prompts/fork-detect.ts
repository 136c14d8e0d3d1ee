// The `fork-detect` prompt: Claude Code shows it as /mcp__ctx__fork-detect; the same steps as the
// .claude/commands/fork-detect.md file `ctx init` writes, so both routes behave alike.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod/mini";
import { forkDetectInstructions } from "../../core/setup/init/fork-detect.ts";

export const FORK_DETECT_PROMPT_NAME = "fork-detect";

const REQUEST_DESCRIPTION = "What you are about to work on (asked when empty).";
// prompts/list takes an argument's description from the schema's `description` property, which only classic
// zod schemas have (zod/mini keeps descriptions in its registry alone), so the property is set here.
const RequestArgument = Object.assign(z.optional(z.string()), { description: REQUEST_DESCRIPTION });

export function registerForkDetectPrompt(server: McpServer): void {
  server.registerPrompt(
    FORK_DETECT_PROMPT_NAME,
    {
      title: "Find the session to fork from",
      description:
        "Search past Claude Code sessions for the one closest to what you are about to do, pick it, and get " +
        "the command that forks it.",
      argsSchema: { request: RequestArgument },
    },
    ({ request }) => ({
      messages: [{ role: "user", content: { type: "text", text: forkDetectInstructions(request?.trim() ?? "") } }],
    }),
  );
}
