// The `fork-detect` prompt: Claude Code shows it as /mcp__ctx__fork-detect; the same steps as the
// .claude/commands/fork-detect.md file `ctx init` writes, so both routes behave alike.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { forkDetectInstructions } from "../../core/setup/init-fork-detect.ts";

export const FORK_DETECT_PROMPT_NAME = "fork-detect";

export function registerForkDetectPrompt(server: McpServer): void {
  server.registerPrompt(
    FORK_DETECT_PROMPT_NAME,
    {
      title: "Find the session to fork from",
      description:
        "Search past Claude Code sessions for the one closest to what you are about to do, pick it, and get " +
        "the command that forks it.",
      argsSchema: { request: z.string().optional().describe("What you are about to work on (asked when empty).") },
    },
    ({ request }) => ({
      messages: [{ role: "user", content: { type: "text", text: forkDetectInstructions(request?.trim() ?? "") } }],
    }),
  );
}
