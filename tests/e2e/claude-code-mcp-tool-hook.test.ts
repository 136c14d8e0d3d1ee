// Claude Code's `"type": "mcp_tool"` hooks, observed in the real CLI (offline, scripted Messages API mock), so
// that a change in Claude Code is noticed: which hook input fields an mcp_tool handler's `input` can
// interpolate, what of the tool's answer reaches the model, what an unconnected server does; then ctx's own
// wiring of docs/mcp-tool-hooks.md (PostToolUse -> ctx_guard_tick on `ctx serve`) carrying the guard's note.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: "${field}" is Claude Code's placeholder syntax, written as it goes into settings.json
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readGuardState } from "../../src/store/guard/guard-store.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { messagesText } from "./harness/messages-api.ts";
import { approveProjectMcpServers, createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-mcp-tool-hook.test.ts skipped: ${cli.skipReason}\n`);

const ECHO_SERVER = fileURLToPath(new URL("./harness/echo-mcp-server.mjs", import.meta.url));

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

/** Every hook input field ctx could want, and the edge cases of the interpolation. */
const PROBE_INPUT = {
  session_id: "${session_id}",
  transcript_path: "${transcript_path}",
  cwd: "${cwd}",
  hook_event_name: "${hook_event_name}",
  permission_mode: "${permission_mode}",
  tool_name: "${tool_name}",
  tool_use_id: "${tool_use_id}",
  subject: "${tool_input.subject}",
  tool_input: "${tool_input}",
  tool_response: "${tool_response}",
  duration_ms: "${duration_ms}",
  missing: "${no_such_field}",
  embedded: "s=${session_id};t=${tool_name}",
  env_home: "${HOME}",
  env_project_dir: "${CLAUDE_PROJECT_DIR}",
  number: 7,
  nested: { id: "${session_id}" },
  list: ["${tool_name}"],
};

const JSON_CONTEXT = "ECHO-JSON-ADDITIONAL-CONTEXT";
const PLAIN_TEXT = "ECHO-PLAIN-TEXT-REPLY";

const echoHook = (input: Record<string, unknown>) => ({ type: "mcp_tool", server: "echo", tool: "echo", input });

interface EchoCall {
  tool: string;
  args: Record<string, unknown>;
}

describe.skipIf(claudeBin === undefined)(`mcp_tool hooks in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it("interpolates every hook input field into string values, and passes the JSON answer's additionalContext on", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    const log = join(sandbox.root, "echo-calls.jsonl");
    await writeFile(
      join(sandbox.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          echo: { type: "stdio", command: process.execPath, args: [ECHO_SERVER], env: { ECHO_MCP_LOG: log } },
        },
      }),
    );
    await approveProjectMcpServers(sandbox, ["echo"]);
    await mkdir(join(sandbox.project, ".claude"), { recursive: true });
    const jsonReply = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: JSON_CONTEXT },
    });
    await writeFile(
      join(sandbox.project, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              matcher: "*",
              hooks: [
                echoHook({ ...PROBE_INPUT, reply: jsonReply }),
                echoHook({ probe: "plain", reply: PLAIN_TEXT }),
                { type: "mcp_tool", server: "ghost", tool: "anything", input: {} },
              ],
            },
          ],
          Stop: [{ hooks: [echoHook(PROBE_INPUT)] }],
        },
      }),
    );
    const debugFile = join(sandbox.root, "claude-debug.log");
    const turn = await runClaudeTurn({
      sandbox,
      prompt: "Plan the retry work.",
      allowedTools: ["TaskCreate"],
      args: ["--debug-file", debugFile],
      turns: [
        { toolUse: { id: "toolu_probe1", name: "TaskCreate", input: { subject: "Step 1", activeForm: "Doing 1" } } },
        { text: "Planned." },
      ],
    });
    const diagnostics = `exit ${turn.exitCode}\nstderr: ${turn.stderr}`;
    expect(turn.exitCode, diagnostics).toBe(0);
    expect(turn.result, diagnostics).toMatchObject({ is_error: false, result: "Planned." });
    const sessionId = turn.result?.session_id ?? "";
    const calls = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as EchoCall);
    const post = calls.find((call) => call.args.hook_event_name === "PostToolUse")?.args;
    const stop = calls.find((call) => call.args.hook_event_name === "Stop")?.args;
    expect(calls.filter((call) => call.args.probe === "plain")).toHaveLength(1);

    // PostToolUse: every field of the hook's input; objects as JSON text, numbers as digits, unknown names and
    // environment variables as "" (no environment interpolation), non-strings as given, nested strings too.
    expect(post).toMatchObject({
      session_id: sessionId,
      transcript_path: turn.transcriptPath,
      cwd: sandbox.project,
      hook_event_name: "PostToolUse",
      permission_mode: "default",
      tool_name: "TaskCreate",
      tool_use_id: "toolu_probe1",
      subject: "Step 1",
      missing: "",
      embedded: `s=${sessionId};t=TaskCreate`,
      env_home: "",
      env_project_dir: "",
      number: 7,
      nested: { id: sessionId },
      list: ["TaskCreate"],
    });
    expect(JSON.parse(String(post?.tool_input))).toMatchObject({ subject: "Step 1", activeForm: "Doing 1" });
    expect(JSON.parse(String(post?.tool_response))).toMatchObject({ task: { subject: "Step 1" } });
    expect(String(post?.duration_ms)).toMatch(/^\d+$/);
    // Stop: the common fields; the tool ones are "".
    expect(stop).toMatchObject({
      session_id: sessionId,
      transcript_path: turn.transcriptPath,
      cwd: sandbox.project,
      hook_event_name: "Stop",
      tool_name: "",
      tool_use_id: "",
      subject: "",
    });

    // What reaches the model: the JSON answer's additionalContext, in the request after the tool call, as a
    // command hook's would; plain text does not (as a command hook's plain stdout on PostToolUse); an
    // unconnected server is skipped without a word to the model and without failing the turn.
    const texts = turn.requests.map((request) => messagesText(request.body ?? {}));
    expect(texts).toHaveLength(2);
    expect(texts[0]).not.toContain(JSON_CONTEXT);
    expect(texts[1]).toContain(`PostToolUse:TaskCreate hook additional context: ${JSON_CONTEXT}`);
    expect(texts.join("\n")).not.toContain(PLAIN_TEXT);
    expect(texts.join("\n")).not.toContain("ghost");
    const debug = await readFile(debugFile, "utf8");
    expect(debug).toContain("mcp_tool calling echo/echo");
    expect(debug).toContain("MCP server 'ghost' not connected");
  }, 120_000);

  it("ctx init wires PostToolUse to ctx_guard_tick on `ctx serve`: the guard's note reaches the model", {
    timeout: 120_000,
  }, async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    expect((await runCtx(sandbox, ["init"])).exitCode).toBe(0);
    await approveProjectMcpServers(sandbox);
    const settingsPath = join(sandbox.project, ".claude", "settings.json");
    const settings = JSON.parse(await readFile(settingsPath, "utf8"));
    // The wiring docs/mcp-tool-hooks.md describes, written by `ctx init` itself (no `ctx hook post-tool-use`).
    expect(settings.hooks.PostToolUse).toEqual([
      {
        matcher: "*",
        hooks: [
          {
            type: "mcp_tool",
            server: "ctx",
            tool: "ctx_guard_tick",
            input: {
              session_id: "${session_id}",
              transcript_path: "${transcript_path}",
              tool_use_id: "${tool_use_id}",
            },
            timeout: 10,
          },
        ],
      },
    ]);
    const taskTurn = (n: number, context: number, delayMs?: number) => ({
      ...(delayMs === undefined ? {} : { delayMs }),
      toolUse: {
        id: `toolu_tick${n}`,
        name: "TaskCreate",
        input: { subject: `Step ${n}`, activeForm: `Doing ${n}` },
      },
      usage: {
        input_tokens: 3,
        cache_creation_input_tokens: 1_000,
        cache_read_input_tokens: context - 1_003,
        output_tokens: 40,
      },
    });
    const debugFile = join(sandbox.root, "claude-debug.log");
    const turn = await runClaudeTurn({
      sandbox,
      prompt: "Plan the retry work as three tasks.",
      allowedTools: ["TaskCreate"],
      args: ["--debug-file", debugFile],
      turns: [
        taskTurn(1, 100_000),
        taskTurn(2, 104_000),
        taskTurn(3, 110_000),
        // The model takes a second to make call 4, as a real one does: the measurement of call 3 is done by then
        // (the mock's other replies come at once, faster than Claude Code writes the transcript).
        taskTurn(4, 112_000, 1_000),
        { text: "Planned." },
      ],
    });
    const diagnostics = `exit ${turn.exitCode}\nstderr: ${turn.stderr}`;
    expect(turn.exitCode, diagnostics).toBe(0);
    expect(turn.result, diagnostics).toMatchObject({ is_error: false, result: "Planned." });
    const texts = turn.requests.map((request) => messagesText(request.body ?? {}));
    expect(texts).toHaveLength(5);
    // The tick answers at once and the server measures each call once its reply (tool_use_id) has landed, so
    // the guard measures every reply, in order; the note for the call that crossed the tier (110K, the third)
    // goes out with the next tick: in the request after the fourth call (docs/mcp-tool-hooks.md, one call late).
    expect(texts.slice(0, 4).some((text) => text.includes("ctx context guard"))).toBe(false);
    expect(texts[4]).toContain(
      "PostToolUse:TaskCreate hook additional context: ctx context guard (warning): 55% of the 200K-token window is in use (110K tokens)",
    );
    const state = readGuardState(sandbox.project, turn.result?.session_id ?? "");
    const debug = await readFile(debugFile, "utf8");
    // On a failure, Claude Code's own account of the hooks: which tick ran when, and how long it took.
    const hookLines = debug
      .split("\n")
      .filter((line) => /mcp_tool|ctx_guard_tick|PostToolUse|Stop \[|timed out|cancel/i.test(line))
      .join("\n");
    expect(state, `${JSON.stringify(state)}\n${hookLines}`).toMatchObject({
      tier: "warning",
      windowTokens: 200_000,
      operations: 4,
    });
    expect(state?.measurements.map((m) => m.usedTokens)).toEqual([100_000, 104_000, 110_000, 112_000]);
    expect(debug.match(/mcp_tool calling ctx\/ctx_guard_tick/g)).toHaveLength(4);
    expect(debug).not.toMatch(/hook post-tool-use/);
    // In loaded full-suite runs (CI included) the first tick ran before Claude Code had created the transcript and
    // failed NOT_FOUND, leaving 3 steps; the tick now waits for the file (bounded), and the message above carries
    // Claude Code's hook log should a tick go missing again.
  });

  it("with ctx's server not connected the mcp_tool ticks are skipped, and the Stop hook steps the guard", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    expect((await runCtx(sandbox, ["init"])).exitCode).toBe(0);
    // The person turned ctx's server off: every PostToolUse tick is skipped by Claude Code.
    await writeFile(
      join(sandbox.project, ".claude", "settings.local.json"),
      JSON.stringify({ disabledMcpjsonServers: ["ctx"] }),
    );
    const usage = (context: number) => ({
      input_tokens: 3,
      cache_creation_input_tokens: 1_000,
      cache_read_input_tokens: context - 1_003,
      output_tokens: 40,
    });
    const debugFile = join(sandbox.root, "claude-debug.log");
    const turn = await runClaudeTurn({
      sandbox,
      prompt: "Plan the retry work as two tasks.",
      allowedTools: ["TaskCreate"],
      args: ["--debug-file", debugFile],
      turns: [
        {
          toolUse: { id: "toolu_off1", name: "TaskCreate", input: { subject: "One", activeForm: "Doing one" } },
          usage: usage(100_000),
        },
        {
          toolUse: { id: "toolu_off2", name: "TaskCreate", input: { subject: "Two", activeForm: "Doing two" } },
          usage: usage(150_000),
        },
        { text: "Planned.", usage: usage(155_000) },
      ],
    });
    const diagnostics = `exit ${turn.exitCode}\nstderr: ${turn.stderr}`;
    expect(turn.exitCode, diagnostics).toBe(0);
    const debug = await readFile(debugFile, "utf8");
    expect(debug).not.toMatch(/mcp_tool calling ctx\/ctx_guard_tick/);
    // No tick came during the turn; the Stop hook's own step measured the last reply (6% left: the yellow tier).
    const state = readGuardState(sandbox.project, turn.result?.session_id ?? "");
    expect(state, diagnostics).toMatchObject({ usedTokens: 155_000, tier: "yellow", operations: 1 });
  }, 120_000);
});
