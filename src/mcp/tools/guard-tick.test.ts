// ctx_guard_tick through a real Client over InMemoryTransport: the same answers as `ctx hook post-tool-use`
// call by call, one call late (one code path, store/guard/after-tool-call.ts, run after the tick answered), the
// checkpoint counter on PostToolUse and Stop, and the transcripts it refuses (outside Claude Code's projects
// folder and not the session's own, a link out of it, a FIFO, a relative path, control characters). What runs
// after the answer, and its concurrency, is ../background-guard.test.ts.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  closeClients,
  connectClient,
  expectSchemaRejection,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { assistantToolUse, type LineContext, toolResult, userPrompt } from "../../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { recordSessionStart } from "../../core/sessions/seen.ts";
import { loadHook } from "../../hooks/runtime/table.ts";
import type { HookDefinition, HookDeps } from "../../hooks/runtime/types.ts";
import { silentLogger } from "../../log.ts";
import { readGuardState } from "../../store/guard/guard-store.ts";
import { updateSessionsSeen } from "../../store/sessions/seen.ts";
import { listCheckpoints } from "../../store/snapshots/checkpoints.ts";
import { BackgroundGuard } from "../background-guard.ts";
import type { ServerDeps } from "../deps.ts";

afterEach(closeClients);

const SESSION = "7f1e2d3c-0000-4000-8000-00000000b0a7";
let base: string;
let env: NodeJS.ProcessEnv;
let claudeProjects: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "ctx-guard-tick-"));
  claudeProjects = join(base, "claude", "projects", "-repo");
  mkdirSync(claudeProjects, { recursive: true });
  env = { CLAUDE_CONFIG_DIR: join(base, "claude"), HOME: join(base, "home") };
});

function project(name: string): string {
  const root = join(base, name);
  mkdirSync(join(root, ".ctx"), { recursive: true });
  return root;
}

/** A transcript and a way to grow it by one tool call whose reply reported `context` tokens in. */
function transcriptAt(path: string, cwd: string) {
  const line: LineContext = { sessionId: SESSION, cwd };
  writeFileSync(path, `${userPrompt(line, "Refactor the retry helper.")}\n`);
  let calls = 0;
  return (context: number) => {
    calls += 1;
    const id = `toolu_${calls}`;
    const usage = {
      input_tokens: 3,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: context - 503,
      output_tokens: 20,
    };
    appendFileSync(path, `${assistantToolUse(line, id, "Read", { file_path: join(cwd, "a.ts") }, usage)}\n`);
    appendFileSync(path, `${toolResult(line, id, "export const a = 1;")}\n`);
  };
}

const tick = (client: Client, args: Record<string, unknown>) =>
  client.callTool({ name: "ctx_guard_tick", arguments: args });

describe("ctx_guard_tick", () => {
  it("answers as `ctx hook post-tool-use` does, one call late: empty, then the hook's JSON after a tier rose", async () => {
    const viaTool = project("tool-repo");
    const viaHook = project("hook-repo");
    const transcript = join(claudeProjects, `${SESSION}.jsonl`);
    const grow = transcriptAt(transcript, viaTool);
    const deps = testDeps(viaTool, { env });
    const client = await connectClient(deps);
    const hookDeps: HookDeps = {
      env,
      now: testDeps(viaHook).now,
      logger: silentLogger,
      projectRoot: viaHook,
      config: defaultConfig(),
      cliPath: "/nonexistent/ctx.js",
    };
    const hookInput = {
      session_id: SESSION,
      transcript_path: transcript,
      cwd: viaHook,
      hook_event_name: "PostToolUse",
      tool_name: "Read",
    };
    const spoken: string[] = [];
    let previous: Awaited<ReturnType<HookDefinition["handle"]>> = null;
    // 200K window, auto-compaction at 167K: the warning at 108K (29.5% left), advisory at 138K (saves the state).
    for (const used of [
      100_000, 102_000, 104_000, 106_000, 108_000, 110_000, 122_000, 130_000, 138_000, 140_000, 141_000,
    ]) {
      grow(used);
      const result = await tick(client, { session_id: SESSION, transcript_path: transcript });
      expect(result.isError, textOf(result)).toBeFalsy();
      const text = textOf(result);
      // The tick passes on what the previous call's measurement said, as the hook said it for that call.
      if (previous === null) {
        expect(text, `at ${used}`).toBe("");
        expect(result.structuredContent).toEqual({
          event: "PostToolUse",
          notice: null,
          systemMessage: null,
          failures: [],
        });
      } else {
        expect(JSON.parse(text), `at ${used}`).toEqual(previous.reply);
        const note = (previous.reply as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
          .additionalContext;
        expect(result.structuredContent).toMatchObject({ event: "PostToolUse", notice: note, failures: [] });
        spoken.push(note);
      }
      await deps.guardTicks.settle();
      previous = await ((await loadHook("post-tool-use")) as HookDefinition).handle(hookInput, hookDeps);
    }
    expect(spoken).toHaveLength(2);
    expect(spoken[0]).toMatch(/^ctx context guard \(warning\): 54% of the 200K-token window is in use \(108K tokens\)/);
    expect(spoken[1]).toContain("ctx context guard (advisory)");
    expect(spoken[1]).toContain("ctx saved the working state");
    expect(readGuardState(viaTool, SESSION)).toMatchObject({ tier: "advisory", usedTokens: 141_000, operations: 11 });
    expect(readGuardState(viaTool, SESSION)?.measurements).toEqual(readGuardState(viaHook, SESSION)?.measurements);
  });

  it("counts messages toward the rolling checkpoint on PostToolUse and on Stop; Stop never steps the guard", async () => {
    const root = project("repo");
    const transcript = join(claudeProjects, `${SESSION}.jsonl`);
    const grow = transcriptAt(transcript, root);
    const config = defaultConfig();
    config.checkpoints.intervalMessages = 6;
    const deps = testDeps(root, { env, config });
    const client = await connectClient(deps);
    const args = { session_id: SESSION, transcript_path: transcript };
    const stopArgs = { ...args, hook_event_name: "Stop" };
    expect((await tick(client, stopArgs)).isError).toBeFalsy(); // the first tick marks where counting starts
    grow(20_000);
    grow(21_000); // 4 messages: below the interval
    const stop = await tick(client, stopArgs);
    expect(stop.isError, textOf(stop)).toBeFalsy();
    expect(textOf(stop)).toBe("");
    expect(stop.structuredContent).toEqual({ event: "Stop", notice: null, systemMessage: null, failures: [] });
    expect(readGuardState(root, SESSION)).toBeNull();
    expect(await listCheckpoints(root)).toEqual([]);
    grow(22_000); // 6 messages: the interval
    const after = await tick(client, args);
    expect(after.isError, textOf(after)).toBeFalsy();
    await deps.guardTicks.settle();
    expect(await listCheckpoints(root)).toHaveLength(1);
    expect(readGuardState(root, SESSION)).toMatchObject({ usedTokens: 22_000, operations: 1 });
  });

  it("reads the session's recorded transcript outside the projects folder, and no other file there", async () => {
    const root = project("repo");
    const recorded = join(base, `${SESSION}.jsonl`);
    transcriptAt(recorded, root)(50_000);
    const stranger = join(base, "other.jsonl");
    writeFileSync(stranger, "{}\n");
    await updateSessionsSeen(root, (current) =>
      recordSessionStart(current, {
        sessionId: SESSION,
        transcriptPath: recorded,
        cwd: root,
        at: new Date("2026-11-22T11:00:00.000Z"),
        source: "startup",
        model: null,
      }),
    );
    const deps = testDeps(root, { env });
    const client = await connectClient(deps);
    const ok = await tick(client, { session_id: SESSION, transcript_path: recorded });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    await deps.guardTicks.settle();
    expect(readGuardState(root, SESSION)).toMatchObject({ usedTokens: 50_000 });

    for (const [session, path] of [
      [SESSION, stranger],
      ["another-session", recorded], // recorded, but for another session
      [SESSION, "/etc/passwd"],
    ] as const) {
      const refused = await tick(client, { session_id: session, transcript_path: path });
      expect(refused.isError, path).toBe(true);
      expect(textOf(refused)).toContain("[USAGE]");
      expect(textOf(refused)).toContain("neither under Claude Code's projects folder nor the transcript recorded");
      expect(textOf(refused)).toContain("hint:");
    }
  });

  it("refuses a link out of the projects folder, a FIFO (without hanging), a missing file and a relative path", async () => {
    const root = project("repo");
    const client = await connectClient(testDeps(root, { env }));
    const outside = join(base, "secret.jsonl");
    writeFileSync(outside, "{}\n");
    const link = join(claudeProjects, "linked.jsonl");
    symlinkSync(outside, link);
    const fifo = join(claudeProjects, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);

    const linked = await tick(client, { session_id: SESSION, transcript_path: link });
    expect(textOf(linked)).toContain("[USAGE]");
    const piped = await tick(client, { session_id: SESSION, transcript_path: fifo });
    expect(piped.isError).toBe(true);
    expect(textOf(piped)).toContain("[UNSAFE_PATH]");
    expect(textOf(piped)).toContain("not a regular file");
    const missing = await tick(client, {
      session_id: SESSION,
      transcript_path: join(claudeProjects, "gone.jsonl"),
    });
    expect(missing.isError).toBe(true);
    const relative = await tick(client, { session_id: SESSION, transcript_path: "projects/x.jsonl" });
    expect(textOf(relative)).toContain("must be absolute");
    expect(readGuardState(root, SESSION)).toBeNull();
  });

  it("rejects control characters, an empty session and other events by schema", async () => {
    const client = await connectClient(testDeps(project("repo"), { env }));
    const transcript = join(claudeProjects, `${SESSION}.jsonl`);
    await expectSchemaRejection(
      client,
      "ctx_guard_tick",
      { session_id: "a\u0000b", transcript_path: transcript },
      "session_id",
    );
    await expectSchemaRejection(
      client,
      "ctx_guard_tick",
      { session_id: SESSION, transcript_path: `${transcript}\n` },
      "transcript_path",
    );
    await expectSchemaRejection(
      client,
      "ctx_guard_tick",
      { session_id: "", transcript_path: transcript },
      "session_id",
    );
    await expectSchemaRejection(
      client,
      "ctx_guard_tick",
      { session_id: SESSION, transcript_path: transcript, hook_event_name: "PreCompact" },
      "hook_event_name",
    );
  });

  it("on random sessions and hostile paths: always an answer, never a hang, nothing written outside .ctx/", async () => {
    const root = project("repo");
    const transcript = join(claudeProjects, `${SESSION}.jsonl`);
    transcriptAt(transcript, root)(30_000);
    const fifo = join(claudeProjects, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    const outside = join(base, "outside.jsonl");
    writeFileSync(outside, "{}\n");
    symlinkSync(outside, join(claudeProjects, "link.jsonl"));
    const deps = testDeps(root, { env });
    const client = await connectClient(deps);
    const written = () =>
      readdirSync(base, { recursive: true })
        .map(String)
        .filter((path) => !path.startsWith(join("repo", ".ctx")))
        .sort();
    const before = written();
    const paths = fc.oneof(
      fc.constantFrom(
        transcript,
        fifo,
        join(claudeProjects, "link.jsonl"),
        claudeProjects,
        `${claudeProjects}${sep}..${sep}..${sep}..${sep}outside.jsonl`,
        outside,
        "/dev/zero",
        "/dev/stdin",
        "relative.jsonl",
      ),
      fc.string({ minLength: 1 }),
    );
    const sessions = fc.oneof(fc.constantFrom(SESSION, "../../escape", "constructor", "a".repeat(200)), fc.string());
    await fc.assert(
      fc.asyncProperty(sessions, paths, fc.constantFrom(undefined, "PostToolUse", "Stop"), async (id, path, event) => {
        const args = {
          session_id: id,
          transcript_path: path,
          ...(event === undefined ? {} : { hook_event_name: event }),
        };
        const answer = await tick(client, args).catch((error: Error) => error);
        if (answer instanceof Error) expect(answer.message).toMatch(/invalid|validation|-32602/i);
        else expect(Array.isArray(answer.content)).toBe(true);
        await deps.guardTicks.settle(); // what runs after the answer writes nothing outside .ctx/ either
        expect(written()).toEqual(before);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 100), seed: Number(process.env.FUZZ_SEED ?? 20261124) },
    );
  }, 60_000);

  it("the first tool call's tick waits for Claude Code to create the transcript, then measures its reply", async () => {
    const root = project("repo");
    const transcript = join(claudeProjects, `${SESSION}.jsonl`);
    const deps = testDeps(root, { env });
    const client = await connectClient(deps);
    // Seen in a loaded CI run with 2.1.330: the first tick ran before the file existed and failed NOT_FOUND.
    setTimeout(() => transcriptAt(transcript, root)(100_000), 60);
    const first = await tick(client, { session_id: SESSION, transcript_path: transcript, tool_use_id: "toolu_1" });
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    await deps.guardTicks.settle();
    expect(readGuardState(root, SESSION)?.measurements.map((m) => m.usedTokens)).toEqual([100_000]);
    // A transcript that never appears is still an error, after the bounded wait.
    const none = await tick(client, {
      session_id: "00000000-0000-4000-8000-000000000000",
      transcript_path: join(claudeProjects, "00000000-0000-4000-8000-000000000000.jsonl"),
      tool_use_id: "toolu_1",
    });
    expect(none.isError).toBe(true);
    expect(JSON.stringify(none.content)).toContain("00000000-0000-4000-8000-000000000000.jsonl");
  });

  it("with tool_use_id, answers before the reply that made the call lands, and measures that reply once it does", async () => {
    const root = project("repo");
    const transcript = join(claudeProjects, `${SESSION}.jsonl`);
    const grow = transcriptAt(transcript, root);
    const deps: ServerDeps = testDeps(root, { env });
    const client = await connectClient(deps);
    grow(40_000); // toolu_1, already there
    await tick(client, { session_id: SESSION, transcript_path: transcript, tool_use_id: "toolu_1" });
    await deps.guardTicks.settle();
    // toolu_2's reply is not in the transcript when the hook calls: the answer comes anyway, and the measurement
    // after it waits for the reply (45K), not the one before (40K).
    const answered = await tick(client, { session_id: SESSION, transcript_path: transcript, tool_use_id: "toolu_2" });
    expect(answered.isError).toBeFalsy();
    expect(textOf(answered)).toBe("");
    grow(45_000);
    await deps.guardTicks.settle();
    expect(readGuardState(root, SESSION)?.measurements.map((m) => m.usedTokens)).toEqual([40_000, 45_000]);
    await expectSchemaRejection(
      client,
      "ctx_guard_tick",
      { session_id: SESSION, transcript_path: transcript, tool_use_id: '"x' },
      "tool_use_id",
    );
  });

  it("a reply that never lands: the measurement gives up after its bound and reads what is there", async () => {
    const root = project("repo");
    const transcript = join(claudeProjects, `${SESSION}.jsonl`);
    transcriptAt(transcript, root)(40_000);
    const deps = testDeps(root, { env, guardTicks: new BackgroundGuard({ lineWaitMs: 50 }) });
    const client = await connectClient(deps);
    const late = await tick(client, { session_id: SESSION, transcript_path: transcript, tool_use_id: "toolu_9" });
    expect(late.isError).toBeFalsy();
    await deps.guardTicks.settle();
    expect(readGuardState(root, SESSION)).toMatchObject({ usedTokens: 40_000, operations: 1 });
  });
});
