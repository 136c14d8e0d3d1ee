// A temp project for the MCP tool tests: a real transcript about a file in the project, the session
// recorded as the SessionStart hook records it, and a real Client connected over InMemoryTransport.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { expect } from "vitest";
import { defaultConfig } from "../../src/config/defaults.ts";
import { recordSessionStart } from "../../src/core/sessions/seen.ts";
import { buildStatus } from "../../src/core/status/report.ts";
import { silentLogger } from "../../src/log.ts";
import { BackgroundGuard } from "../../src/mcp/background-guard.ts";
import type { ServerDeps } from "../../src/mcp/deps.ts";
import { createServer } from "../../src/mcp/server.ts";
import { runForkDetect } from "../../src/search/fork-detect.ts";
import { updateSessionsSeen } from "../../src/store/sessions/seen.ts";
import { assistantText, assistantToolUse, type LineContext, toolResult, userPrompt } from "./transcript-lines.ts";

export const SAVED_AT = new Date("2026-11-22T11:00:00.000Z");

export interface McpTestProject {
  project: string;
  /** The source file the transcript wrote. */
  file: string;
  transcriptOf: (sessionId: string) => string;
}

/** An empty project folder (no `.ctx/`, no session recorded). */
export function createEmptyProject(): McpTestProject {
  const base = mkdtempSync(join(tmpdir(), "ctx-mcp-"));
  const project = join(base, "repo");
  mkdirSync(join(project, "src"), { recursive: true });
  return { project, file: join(project, "src", "retry.ts"), transcriptOf: (id) => join(base, `${id}.jsonl`) };
}

/** A session that set a todo, wrote src/retry.ts and stated a decision, recorded as started in the project. */
export async function recordSession(test: McpTestProject, sessionId: string, startedAt = SAVED_AT): Promise<string> {
  const ctx: LineContext = { sessionId, cwd: test.project };
  writeFileSync(test.file, "export const retries = 3;\n");
  const transcript = test.transcriptOf(sessionId);
  writeFileSync(
    transcript,
    [
      userPrompt(ctx, "Add retries to the fetch helper. I prefer small functions."),
      assistantToolUse(ctx, `${sessionId}_t`, "TodoWrite", {
        todos: [{ content: "Add retry helper", status: "in_progress", activeForm: "Adding the retry helper" }],
      }),
      toolResult(ctx, `${sessionId}_t`, "Todos have been modified successfully."),
      assistantToolUse(ctx, `${sessionId}_w`, "Write", {
        file_path: test.file,
        content: "export const retries = 3;\n",
      }),
      toolResult(ctx, `${sessionId}_w`, `File created successfully at: ${test.file}`),
      assistantText(ctx, `${sessionId}_x`, "We decided to retry three times with exponential backoff."),
    ].join("\n"),
  );
  await updateSessionsSeen(test.project, (current) =>
    recordSessionStart(current, {
      sessionId,
      transcriptPath: transcript,
      cwd: test.project,
      at: startedAt,
      source: "startup",
      model: null,
    }),
  );
  return transcript;
}

export function testDeps(projectRoot: string, overrides: Partial<ServerDeps> = {}): ServerDeps {
  return {
    version: "9.9.9",
    projectRoot,
    logger: silentLogger,
    config: defaultConfig(),
    now: () => SAVED_AT,
    collectStatus: async () =>
      buildStatus({
        version: "9.9.9",
        root: projectRoot,
        ctxDir: join(projectRoot, ".ctx"),
        initialized: true,
        sessions: null,
        warnings: [],
      }),
    // An empty Claude Code folder and index unless a test brings its own.
    forkDetect: (request) =>
      runForkDetect(request, {
        config: defaultConfig(),
        env: { CLAUDE_CONFIG_DIR: join(projectRoot, ".no-claude"), CTX_HOME: join(projectRoot, ".no-ctx-home") },
        projectRoot,
        now: () => SAVED_AT.getTime(),
      }),
    guardTicks: new BackgroundGuard(),
    ...overrides,
  };
}

const open: Client[] = [];

export async function connectClient(deps: ServerDeps): Promise<Client> {
  const server = createServer(deps);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

/** For afterEach: closes every client connected since the last call. */
export async function closeClients(): Promise<void> {
  await Promise.all(open.splice(0).map((client) => client.close()));
}

/** The text parts of a tool result, joined. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? [];
  return content.map((part) => part.text ?? "").join("\n");
}

/**
 * Calls a tool with arguments its input schema must reject: the SDK answers with a validation error
 * (a protocol error or an isError result, by SDK version) naming `field`.
 */
export async function expectSchemaRejection(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  field: string,
): Promise<void> {
  const result = await client.callTool({ name, arguments: args }).catch((error: Error) => error);
  const message = result instanceof Error ? result.message : textOf(result);
  if (!(result instanceof Error)) expect(result.isError).toBe(true);
  expect(message).toMatch(/invalid|validation|unrecognized/i);
  expect(message).toContain(field);
}
