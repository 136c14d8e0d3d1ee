// The context guard inside the real Claude Code (offline, scripted Messages API mock): the mock's replies
// report a growing `usage`; the tool call whose reply crosses the warning tier is measured by `ctx serve` after
// its PostToolUse tick (ctx_guard_tick) answered, and the next tick tells Claude (additionalContext): the request
// after the next tool call carries the note. Earlier requests carry none (the guard speaks on a tier change only).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readGuardState } from "../../src/store/guard/guard-store.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { doctorInvalidSettings } from "./harness/claude-output.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { messagesText } from "./harness/messages-api.ts";
import { approveProjectMcpServers, createSandbox, runClaude, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-guard.test.ts skipped: ${cli.skipReason}\n`);

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

const NOTE = "ctx context guard (warning)";
/** A reply calling TaskCreate, whose request reported `context` tokens in (all but 3 from the cache). */
const taskTurn = (n: number, context: number, delayMs?: number) => ({
  ...(delayMs === undefined ? {} : { delayMs }),
  toolUse: {
    id: `toolu_guard${n}`,
    name: "TaskCreate",
    input: { subject: `Step ${n}`, activeForm: `Doing step ${n}` },
  },
  usage: {
    input_tokens: 3,
    cache_creation_input_tokens: 1_000,
    cache_read_input_tokens: context - 1_003,
    output_tokens: 40,
  },
});

describe.skipIf(claudeBin === undefined)(`the context guard in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it("growing usage: the warning reaches the model one tool call after the call that crossed the tier", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    expect((await runCtx(sandbox, ["init", "--statusline"])).exitCode).toBe(0);
    await approveProjectMcpServers(sandbox);
    const settings = JSON.parse(await readFile(join(sandbox.project, ".claude", "settings.json"), "utf8"));
    expect(settings.statusLine).toEqual({ type: "command", command: "ctx statusline" });
    expect(doctorInvalidSettings((await runClaude(sandbox, ["doctor"])).stdout)).toEqual([]);
    // 200K window, auto-compaction at 167K: 100K and 104K leave 33.5% and 31.5% (ok); 110K leaves 28.5% (warning).
    const turn = await runClaudeTurn({
      sandbox,
      prompt: "Plan the retry work as three tasks.",
      allowedTools: ["TaskCreate"],
      turns: [
        taskTurn(1, 100_000),
        taskTurn(2, 104_000),
        taskTurn(3, 110_000),
        taskTurn(4, 112_000, 1_000), // a model's second to make the next call: call 3 is measured by then
        { text: "Planned." },
      ],
    });
    const diagnostics = `exit ${turn.exitCode}\nstdout: ${turn.stdout}\nstderr: ${turn.stderr}`;
    expect(turn.exitCode, diagnostics).toBe(0);
    expect(turn.result, diagnostics).toMatchObject({ is_error: false, result: "Planned." });
    expect(turn.requests).toHaveLength(5);
    const texts = turn.requests.map((request) => messagesText(request.body ?? {}));
    // Never before the tool call whose reply crossed the tier (110K)...
    expect(texts.slice(0, 3).some((text) => text.includes(NOTE))).toBe(false);
    // ...and with the tick after it (docs/mcp-tool-hooks.md: the note goes out one call late).
    expect(texts[3]).not.toContain(NOTE);
    expect(texts[4]).toContain(NOTE);
    expect(texts[4]).toMatch(/55% of the 200K-token window is in use \(110K tokens\)/);

    const state = readGuardState(sandbox.project, turn.result?.session_id ?? "");
    expect(state).toMatchObject({ tier: "warning", windowTokens: 200_000, operations: 4 });
    // Claude Code 2.1.330 often writes a reply's line after the PostToolUse hook ran; the server measures each
    // call once its own reply has landed, so every call is measured on its reply, in order.
    const used = state?.measurements.map((m) => m.usedTokens) ?? [];
    expect(used).toEqual([100_000, 104_000, 110_000, 112_000]);
    const last = 112_000;
    const status = JSON.parse((await runCtx(sandbox, ["status", "--json"])).stdout);
    expect(status.health).toMatchObject({
      tier: "warning",
      usedTokens: last,
      windowTokens: 200_000,
      percentUsed: last / 2_000,
      lastCompaction: null,
    });
    expect(status.health.velocity).toBeGreaterThan(0);
    expect(status.health.forecastOperations).toBeGreaterThan(0);
  }, 120_000);
});
