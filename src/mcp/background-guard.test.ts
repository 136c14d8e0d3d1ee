// What ctx_guard_tick does after its answer, through a real Client: each call measured on its own reply however
// the ticks and the transcript's lines interleave (two ticks in flight, a tick while the previous measurement
// still waits), sessions apart on one server, and the Stop hook (its own process in Claude Code) waiting for a
// measurement under way, or measuring itself when the server that took it on is gone.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeClients, connectClient, testDeps, textOf } from "../../tests/helpers/mcp-project.ts";
import {
  assistantText,
  assistantToolUse,
  type LineContext,
  toolResult,
  userPrompt,
} from "../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../config/defaults.ts";
import { loadHook } from "../hooks/runtime/table.ts";
import type { HookDefinition, HookDeps } from "../hooks/runtime/types.ts";
import { silentLogger } from "../log.ts";
import { checkpointTick } from "../store/guard/checkpoint-tick.ts";
import { readGuardState } from "../store/guard/guard-store.ts";
import { readTickHandoff, updateTickHandoff } from "../store/guard/tick-handoff.ts";
import { BackgroundGuard } from "./background-guard.ts";

afterEach(closeClients);

let base: string;
let root: string;
let env: NodeJS.ProcessEnv;
let claudeProjects: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "ctx-background-guard-"));
  claudeProjects = join(base, "claude", "projects", "-repo");
  mkdirSync(claudeProjects, { recursive: true });
  env = { CLAUDE_CONFIG_DIR: join(base, "claude"), HOME: join(base, "home") };
  root = join(base, "repo");
  mkdirSync(join(root, ".ctx"), { recursive: true });
});

/** A session's transcript, and the lines of its tool call `n` (the reply reporting `context` tokens, the result). */
function session(id: string) {
  const path = join(claudeProjects, `${id}.jsonl`);
  const line: LineContext = { sessionId: id, cwd: root };
  writeFileSync(path, `${userPrompt(line, "Refactor the retry helper.")}\n`);
  const call = (n: number, context: number) => {
    const usage = { input_tokens: 3, cache_creation_input_tokens: 500, cache_read_input_tokens: context - 503 };
    const toolUse = assistantToolUse(line, `toolu_${n}`, "Read", { file_path: join(root, "a.ts") }, usage);
    return `${toolUse}\n${toolResult(line, `toolu_${n}`, "export const a = 1;")}\n`;
  };
  const land = (...lines: string[]) => appendFileSync(path, lines.join(""));
  const finalReply = (text: string, context: number) => {
    const usage = { input_tokens: 3, cache_creation_input_tokens: 500, cache_read_input_tokens: context - 503 };
    return `${assistantText(line, `final-${id}`, text, usage)}\n`;
  };
  return { id, path, call, land, finalReply };
}

type Session = ReturnType<typeof session>;

const tick = (client: Client, s: Session, n: number) =>
  client.callTool({
    name: "ctx_guard_tick",
    arguments: { session_id: s.id, transcript_path: s.path, tool_use_id: `toolu_${n}` },
  });

const measured = (s: Session) => readGuardState(root, s.id)?.measurements.map((m) => m.usedTokens) ?? null;
const noteOf = (text: string) =>
  text === "" ? null : (JSON.parse(text) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput;

function hookDeps(): HookDeps {
  return {
    env,
    now: testDeps(root).now,
    logger: silentLogger,
    projectRoot: root,
    config: defaultConfig(),
    cliPath: "",
  };
}

const A = "aaaaaaaa-0000-4000-8000-000000000001";
const B = "bbbbbbbb-0000-4000-8000-000000000002";

describe("ctx_guard_tick's measurements after its answer", () => {
  it("two ticks in flight whose replies land together: each call is measured on its own reply, in order", async () => {
    const s = session(A);
    const deps = testDeps(root, { env });
    const client = await connectClient(deps);
    const answers = await Promise.all([tick(client, s, 1), tick(client, s, 2)]);
    expect(answers.map(textOf)).toEqual(["", ""]);
    s.land(s.call(1, 100_000), s.call(2, 104_000)); // Claude Code writes both replies at once
    await deps.guardTicks.settle();
    expect(measured(s)).toEqual([100_000, 104_000]);
  });

  it("a tick while the previous measurement still waits answers at once; order holds; the note goes out next", async () => {
    const s = session(A);
    const deps = testDeps(root, { env });
    const client = await connectClient(deps);
    expect(textOf(await tick(client, s, 1))).toBe(""); // toolu_1's reply not written yet: its measurement waits
    s.land(s.call(1, 100_000), s.call(2, 110_000)); // 110K crosses the warning (108K of a 200K window)
    expect(textOf(await tick(client, s, 2))).toBe(""); // toolu_2's reply is there, but it is measured after toolu_1
    await deps.guardTicks.settle();
    expect(measured(s)).toEqual([100_000, 110_000]);
    s.land(s.call(3, 111_000));
    const third = await tick(client, s, 3);
    expect(noteOf(textOf(third))?.additionalContext).toMatch(/^ctx context guard \(warning\): 55% .*\(110K tokens\)/);
    expect(third.structuredContent).toMatchObject({ notice: expect.stringContaining("(warning)"), failures: [] });
    await deps.guardTicks.settle();
    s.land(s.call(4, 112_000));
    expect(textOf(await tick(client, s, 4))).toBe(""); // passed on once
    await deps.guardTicks.settle();
    expect(readTickHandoff(root, s.id)).toBeNull(); // nothing left: the file is gone
  });

  it("several sessions on one server: a waiting measurement holds up no other session; notes stay apart", async () => {
    const a = session(A);
    const b = session(B);
    const deps = testDeps(root, { env });
    const client = await connectClient(deps);
    await tick(client, a, 1); // its reply is late
    b.land(b.call(1, 100_000), b.call(2, 110_000));
    await tick(client, b, 1);
    await tick(client, b, 2);
    await deps.guardTicks.settle(b.id);
    expect(measured(b)).toEqual([100_000, 110_000]);
    expect(measured(a)).toBeNull(); // still waiting for its own reply, not measured on what is there
    expect(textOf(await tick(client, a, 2))).toBe(""); // B's note is not A's
    b.land(b.call(3, 111_000));
    expect(noteOf(textOf(await tick(client, b, 3)))?.additionalContext).toContain("(warning)");
    a.land(a.call(1, 50_000), a.call(2, 51_000));
    await deps.guardTicks.settle();
    expect(measured(a)).toEqual([50_000, 51_000]);
  });

  it("Stop waits for the server still measuring the turn's last call: one step, and the user's line", async () => {
    const s = session(A);
    // A server slow to see the line land (it looks every 300 ms): Stop, meanwhile, must not measure the call too.
    const deps = testDeps(root, { env, guardTicks: new BackgroundGuard({ pollMs: 300 }) });
    const client = await connectClient(deps);
    s.land(s.call(1, 151_000));
    await tick(client, s, 1);
    await deps.guardTicks.settle();
    await tick(client, s, 2); // 155K: the yellow tier (6% left), which speaks to the user too
    const stopInput = {
      session_id: s.id,
      transcript_path: s.path,
      cwd: root,
      hook_event_name: "Stop",
      last_assistant_message: "Planned.",
    };
    const stopping = ((await loadHook("stop")) as HookDefinition).handle(stopInput, hookDeps());
    s.land(s.call(2, 155_000), s.finalReply("Planned.", 155_500));
    const stop = await stopping;
    expect(stop?.reply).toEqual({ systemMessage: expect.stringMatching(/^ctx: context yellow: 77(\.5)?% used/) });
    expect(stop?.stderr).toBeUndefined();
    expect(readGuardState(root, s.id)).toMatchObject({ operations: 2, tier: "yellow" });
    expect(measured(s)).toEqual([151_000, 155_000]);
    // The note for the model waits for the next tick (the next turn's first call), without the user's line.
    s.land(s.call(3, 156_000));
    const next = await tick(client, s, 3);
    expect(noteOf(textOf(next))?.additionalContext).toContain("ctx context guard (yellow)");
    expect(JSON.parse(textOf(next)).systemMessage).toBeUndefined();
    await deps.guardTicks.settle();
  });

  it("Stop measures itself when the server that took the measurement on is gone, and says so", async () => {
    const s = session(A);
    s.land(s.call(1, 155_000), s.finalReply("Planned.", 155_500));
    // The server counted the transcript (an earlier call's measurement) and was killed before measuring toolu_1.
    await checkpointTick({ session_id: s.id, transcript_path: s.path }, hookDeps());
    const gone = Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]));
    updateTickHandoff(root, s.id, (current) => ({ ...current, measuring: { pid: gone, until: Date.now() + 60_000 } }));
    const stop = await ((await loadHook("stop")) as HookDefinition).handle(
      {
        session_id: s.id,
        transcript_path: s.path,
        cwd: root,
        hook_event_name: "Stop",
        last_assistant_message: "Planned.",
      },
      hookDeps(),
    );
    expect(stop?.stderr).toContain("ctx serve did not finish measuring the last tool call; measured here");
    expect(stop?.reply).toEqual({ systemMessage: expect.stringContaining("ctx: context yellow") });
    expect(readGuardState(root, s.id)).toMatchObject({ usedTokens: 155_500, operations: 1 });
    expect(readTickHandoff(root, s.id)?.measuring ?? null).toBeNull();
  });
});
