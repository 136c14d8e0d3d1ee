import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEmptyProject, type McpTestProject, recordSession } from "../../tests/helpers/mcp-project.ts";
import { assistantToolUse, userPrompt } from "../../tests/helpers/transcript-lines.ts";
import { createLogger } from "../log.ts";
import { readGuardState } from "../store/guard/guard-store.ts";
import { serveStdio } from "./stdio.ts";

let test: McpTestProject;
let stdin: PassThrough;
beforeEach(() => {
  test = createEmptyProject();
  stdin = new PassThrough();
});
afterEach(() => {
  stdin.end();
});

/**
 * Starts `ctx serve` in-process, sends the requests, and returns the replies by id once all have come; `beforeEnd`
 * runs between the last reply and the end of stdin (the client going away).
 */
async function serve(
  env: NodeJS.ProcessEnv,
  requests: object[],
  logs: string[],
  beforeEnd: () => void = () => {},
): Promise<Map<number, unknown>> {
  const stdout = new PassThrough();
  const logger = createLogger({ level: "warn", write: (line) => logs.push(line) });
  const done = serveStdio({ version: "9.9.9", projectRoot: test.project, logger, stdin, stdout, env });
  const replies = new Map<number, unknown>();
  let buffer = "";
  const wanted = requests.filter((r) => "id" in r).length;
  const all = new Promise<void>((resolve) => {
    stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
        if (message.id !== undefined) replies.set(message.id, message.result ?? message.error);
      }
      if (replies.size >= wanted) resolve();
    });
  });
  for (const request of requests) stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...request })}\n`);
  await all;
  beforeEnd();
  stdin.end();
  await done;
  return replies;
}

const initialize = {
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};
const initialized = { method: "notifications/initialized" };

describe("serveStdio", () => {
  it("captures the session named by CLAUDE_CODE_SESSION_ID", async () => {
    await recordSession(test, "mine", new Date("2026-11-22T09:00:00Z"));
    await recordSession(test, "other", new Date("2026-11-22T10:00:00Z"));
    const replies = await serve(
      { CLAUDE_CODE_SESSION_ID: "mine", CTX_HOME: test.project },
      [initialize, initialized, { id: 2, method: "tools/call", params: { name: "ctx_save", arguments: {} } }],
      [],
    );
    expect(replies.get(2)).toMatchObject({ structuredContent: { sessionId: "mine" } });
  });

  it("serves with the default config, and says so, when the config is invalid", async () => {
    const logs: string[] = [];
    const replies = await serve(
      { CTX_HOOKS__MAX_INJECT_CHARS: "lots", CTX_HOME: test.project },
      [initialize, initialized, { id: 2, method: "tools/call", params: { name: "ctx_restore", arguments: {} } }],
      logs,
    );
    expect(replies.get(1)).toMatchObject({ serverInfo: { name: "ctx" } });
    expect(replies.get(2)).toMatchObject({ structuredContent: { found: false } });
    expect(logs.join("\n")).toMatch(/warn: config: .*CTX_HOOKS__MAX_INJECT_CHARS.*using the defaults/);
  });

  it("finishes a guard measurement still waiting for its reply before it exits, when the client goes away", async () => {
    const claude = join(test.project, "..", "claude");
    const transcript = join(claude, "projects", "-repo", "s1.jsonl");
    mkdirSync(join(claude, "projects", "-repo"), { recursive: true });
    mkdirSync(join(test.project, ".ctx"));
    const line = { sessionId: "s1", cwd: test.project };
    writeFileSync(transcript, `${userPrompt(line, "Go.")}\n`);
    const args = { session_id: "s1", transcript_path: transcript, tool_use_id: "toolu_late" };
    const usage = { input_tokens: 3, cache_creation_input_tokens: 500, cache_read_input_tokens: 60_000 };
    const replies = await serve(
      { CLAUDE_CONFIG_DIR: claude, CTX_HOME: test.project },
      [initialize, initialized, { id: 2, method: "tools/call", params: { name: "ctx_guard_tick", arguments: args } }],
      [],
      // The tick has answered; Claude Code writes the call's reply, and exits.
      () => appendFileSync(transcript, `${assistantToolUse(line, "toolu_late", "Read", {}, usage)}\n`),
    );
    expect(replies.get(2)).toMatchObject({ structuredContent: { event: "PostToolUse", notice: null } });
    expect(readGuardState(test.project, "s1")).toMatchObject({ usedTokens: 60_503, operations: 1 });
  });
});
