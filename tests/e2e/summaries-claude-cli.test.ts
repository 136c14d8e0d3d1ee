// The claude-cli summary provider driving the real Claude Code CLI (pinned release, offline, against the
// Messages API mock): Claude Code accepts the flags, answers in the JSON shape the provider parses, writes no
// transcript (--no-session-persistence), and ctx's own hooks in the user's settings do nothing in the child
// (CTX_HOOKS_DISABLED=1) and the user's MCP servers are not started (--strict-mcp-config), so summarising
// never recurses. Skips with a reason when the CLI is unavailable.
import { existsSync, readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createClaudeCliClient } from "../../src/summaries/claude-cli.ts";
import { ensureClaudeCli } from "./harness/claude-cli.ts";
import { messagesText } from "./harness/messages-api.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { createSandbox, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`summaries-claude-cli.test.ts skipped: ${cli.skipReason}\n`);

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

/** Every `.ctx/sessions.ctx` under `dir`: what ctx's SessionStart hook writes when it runs. */
function sessionFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith("sessions.ctx"));
}

describe.skipIf(claudeBin === undefined)("claude-cli provider with the real Claude Code", () => {
  it("gets summaries through `claude -p`, with no transcript written, ctx's hooks silent and no MCP server started", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    // ctx's hooks in the user's own settings, as a global install would have them.
    await mkdir(join(sandbox.home, ".claude"), { recursive: true });
    const hook = (event: string) => [{ hooks: [{ type: "command", command: `ctx hook ${event}` }] }];
    await writeFile(
      join(sandbox.home, ".claude", "settings.json"),
      JSON.stringify({ hooks: { SessionStart: hook("session-start"), UserPromptSubmit: hook("user-prompt-submit") } }),
    );
    // A user-scope MCP server that leaves a mark when started: --strict-mcp-config keeps the child from starting it.
    const mcpMark = join(sandbox.root, "mcp-started");
    await writeFile(
      join(sandbox.home, ".claude.json"),
      JSON.stringify({
        mcpServers: { spy: { type: "stdio", command: "sh", args: ["-c", `touch ${mcpMark}; sleep 5`] } },
      }),
    );
    const mock = await startMockAnthropic({
      // Claude Code -p sends tools with the main request; the summary prompt is its user message.
      isSideRequest: (body) => !messagesText(body).includes('<message id="m1"'),
      turns: [
        (request) => {
          const asked = request.body === undefined ? "" : messagesText(request.body);
          return {
            text: JSON.stringify({
              summaries: { m1: asked.includes("retries") ? "Asked for retries in src/http.ts." : "?" },
            }),
            usage: { input_tokens: 1_234, output_tokens: 56 },
          };
        },
      ],
    });
    try {
      const client = createClaudeCliClient({
        model: "claude-haiku-4-5",
        timeoutMs: 90_000,
        command: claudeBin ?? "claude",
        env: {
          ...sandbox.env,
          ANTHROPIC_BASE_URL: mock.url,
          ANTHROPIC_API_KEY: "test-key",
          ENABLE_TOOL_SEARCH: "false",
        },
      });
      const answer = await client.complete(
        '<message id="m1" role="user" kind="prompt">\nPlease add retries to src/http.ts\n</message>',
        512,
      );
      expect(JSON.parse(answer.text)).toEqual({ summaries: { m1: "Asked for retries in src/http.ts." } });
      expect(answer.usage.outputTokens).toBeGreaterThan(0);
      expect(mock.problems).toEqual([]);
      const main = mock.mainRequests()[0];
      expect(main?.body?.model).toBe("claude-haiku-4-5");
      // --no-session-persistence: no transcript anywhere under Claude Code's projects folder.
      const projects = join(sandbox.home, ".claude", "projects");
      const transcripts = existsSync(projects)
        ? readdirSync(projects, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith(".jsonl"))
        : [];
      expect(transcripts).toEqual([]);
      // The hooks ran as commands but returned at once: no session was recorded anywhere.
      expect(sessionFiles(sandbox.root)).toEqual([]);
      expect(existsSync(mcpMark)).toBe(false);
    } finally {
      await mock.close();
    }
  });
});
