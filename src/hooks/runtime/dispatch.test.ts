import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/defaults.ts";
import type { HookEvent } from "../../core/hooks/events.ts";
import { CtxError } from "../../errors.ts";
import { silentLogger } from "../../log.ts";
import { compiledHookCheck } from "./compiled-check.ts";
import { type HookRunDeps, runHook } from "./dispatch.ts";
import { checkSessionStartInput } from "./schemas.compiled.ts";
import { loadHook } from "./table.ts";
import { type HookDefinition, type HookLoader, type HookOutcome, hookOf } from "./types.ts";

/** A loader answering some events itself and leaving the others to `fallback` (none: not handled here). */
const hooksOf =
  (own: Partial<Record<HookEvent, HookDefinition>>, fallback: HookLoader = async () => undefined): HookLoader =>
  async (event) =>
    own[event] ?? fallback(event);

const startInput = {
  session_id: "abc123",
  transcript_path: "/home/u/.claude/projects/-p/abc123.jsonl",
  cwd: "/p",
  hook_event_name: "SessionStart",
  source: "startup",
  model: "claude-sonnet-5",
  some_future_field: { added: "by a later Claude Code" },
};

function depsWith(handle: HookDefinition["handle"], overrides: Partial<HookRunDeps> = {}): HookRunDeps {
  return {
    env: {},
    now: () => new Date("2026-11-22T00:00:00Z"),
    logger: silentLogger,
    findProjectRoot: (cwd) => cwd,
    loadConfig: () => defaultConfig(),
    loadHook: hooksOf({ "session-start": hookOf(compiledHookCheck(checkSessionStartInput), handle) }, loadHook),
    ...overrides,
  };
}

const reply = (outcome: HookOutcome | null) => async () => outcome;

describe("runHook", () => {
  it("passes the validated input (unknown fields kept) and the project to the handler, prints its JSON reply", async () => {
    let seen: unknown;
    let root = "";
    const deps = depsWith(async (input, hookDeps) => {
      seen = input;
      root = hookDeps.projectRoot;
      return { reply: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hi" } } };
    });
    const result = await runHook("SessionStart", JSON.stringify(startInput), deps);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hi" },
    });
    expect(seen).toMatchObject({ session_id: "abc123", some_future_field: { added: "by a later Claude Code" } });
    expect(root).toBe("/p");
  });

  it("accepts ctx's kebab-case names and Claude Code's names alike", async () => {
    for (const name of ["session-start", "SessionStart"]) {
      const result = await runHook(name, JSON.stringify(startInput), depsWith(reply({ reply: "plain text" })));
      expect(result.stdout).toBe("plain text");
    }
  });

  it.each([
    ["empty stdin", "session-start", "", /empty stdin/],
    ["whitespace stdin", "session-start", "  \n", /empty stdin/],
    ["invalid JSON", "session-start", "{not json", /not valid JSON/],
    ["a JSON array", "session-start", "[1,2]", /invalid hook input/],
    ["a missing field", "session-start", JSON.stringify({ ...startInput, session_id: undefined }), /session_id/],
    [
      "a field of the wrong type",
      "session-start",
      JSON.stringify({ ...startInput, source: 7 }),
      /source: expected string/,
    ],
    ["an unknown event", "post-compact-ish", JSON.stringify(startInput), /unknown event "post-compact-ish"/],
  ])("%s: exit 0, one stderr line, nothing on stdout, handler not run", async (_label, event, stdin, message) => {
    let ran = false;
    const result = await runHook(
      event,
      stdin,
      depsWith(async () => {
        ran = true;
        return null;
      }),
    );
    expect(result).toMatchObject({ stdout: "", exitCode: 0 });
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(ran).toBe(false);
  });

  it("a handler that throws: exit 0, one stderr line, nothing on stdout", async () => {
    const result = await runHook(
      "session-start",
      JSON.stringify(startInput),
      depsWith(async () => {
        throw new CtxError("STATE_CORRUPT", "/p/.ctx/sessions.ctx: checksum mismatch");
      }),
    );
    expect(result).toEqual({
      stdout: "",
      stderr: "ctx hook: session-start: failed: /p/.ctx/sessions.ctx: checksum mismatch\n",
      exitCode: 0,
    });
  });

  it("pre-compact blocks the compaction when its save runs out of time (and the config says block)", async () => {
    const preCompact = (await loadHook("pre-compact")) as HookDefinition;
    const hang = { ...preCompact, handle: () => new Promise<null>(() => {}), timeoutMs: () => 30 };
    const input = {
      session_id: "s",
      transcript_path: "/t.jsonl",
      cwd: "/p",
      hook_event_name: "PreCompact",
      trigger: "auto",
    };
    const blocked = await runHook(
      "pre-compact",
      JSON.stringify(input),
      depsWith(reply(null), { loadHook: hooksOf({ "pre-compact": hang }, loadHook) }),
    );
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stderr).toMatch(/compaction blocked so nothing is lost/);
    const config = defaultConfig();
    config.hooks.blockCompactionOnSaveFailure = false;
    const allowed = await runHook(
      "pre-compact",
      JSON.stringify(input),
      depsWith(reply(null), { loadHook: hooksOf({ "pre-compact": hang }, loadHook), loadConfig: () => config }),
    );
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stdout).toBe("");
  });

  it("a handler that hangs is abandoned after the configured limit", async () => {
    const config = defaultConfig();
    config.hooks.handlerTimeoutMs = 50;
    const result = await runHook(
      "session-start",
      JSON.stringify(startInput),
      depsWith(() => new Promise(() => {}), { loadConfig: () => config }),
    );
    expect(result.stdout).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/longer than 50 ms/);
  });

  it("an invalid config file does not stop the hook: it runs on defaults and says so", async () => {
    let ran = false;
    const result = await runHook(
      "session-start",
      JSON.stringify(startInput),
      depsWith(
        async () => {
          ran = true;
          return null;
        },
        {
          loadConfig: () => {
            throw new CtxError("CONFIG_INVALID", "/p/.ctx/config.json: guard.warningPercent: must be at most 100");
          },
        },
      ),
    );
    expect(ran).toBe(true);
    expect(result.stderr).toMatch(/guard.warningPercent.*default settings/);
  });

  it("exit 2 and the reason reach the process when a handler blocks on purpose", async () => {
    const result = await runHook(
      "session-start",
      JSON.stringify(startInput),
      depsWith(reply({ exitCode: 2, stderr: "state could not be saved" })),
    );
    expect(result).toEqual({ stdout: "", stderr: "state could not be saved\n", exitCode: 2 });
  });

  it("every Claude Code event of the table validates its documented example input", async () => {
    const common = { session_id: "s", transcript_path: "/t.jsonl", cwd: "/p" };
    const examples = {
      "pre-compact": { ...common, hook_event_name: "PreCompact", trigger: "manual", custom_instructions: null },
      "post-tool-use": {
        ...common,
        hook_event_name: "PostToolUse",
        tool_name: "Write",
        tool_input: {},
        tool_response: {},
      },
      "user-prompt-submit": { ...common, hook_event_name: "UserPromptSubmit", prompt: "hello" },
      stop: { ...common, hook_event_name: "Stop", stop_hook_active: true, last_assistant_message: "done" },
    } as const;
    // Every handler replaced by one that records its input: only the schemas are under test here.
    const seen: string[] = [];
    const recording = async (event: HookEvent): Promise<HookDefinition | undefined> => {
      const definition = await loadHook(event);
      return (
        definition && {
          ...definition,
          handle: async () => {
            seen.push(event);
            return null;
          },
        }
      );
    };
    for (const [event, input] of Object.entries(examples)) {
      const result = await runHook(event, JSON.stringify(input), depsWith(reply(null), { loadHook: recording }));
      expect(result, event).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    }
    expect(seen).toEqual(Object.keys(examples));
  });

  it("answers a handler that cannot be loaded (a broken install) with one line, nothing done", async () => {
    const broken: HookLoader = async () => {
      throw new Error("Cannot find module './session-start.hook-X.js'");
    };
    const result = await runHook(
      "SessionStart",
      JSON.stringify(startInput),
      depsWith(reply(null), { loadHook: broken }),
    );
    expect(result).toEqual({
      stdout: "",
      stderr:
        "ctx hook: session-start: cannot load its handler (Cannot find module './session-start.hook-X.js'); nothing done\n",
      exitCode: 0,
    });
  });

  it("answers an event its table does not hold (an entry given another entry's event) with one line, nothing done", async () => {
    const only = hooksOf({ "post-tool-use": (await loadHook("post-tool-use")) as HookDefinition });
    const result = await runHook("SessionStart", JSON.stringify(startInput), depsWith(reply(null), { loadHook: only }));
    expect(result).toEqual({
      stdout: "",
      stderr: "ctx hook: session-start: not handled by this entry of ctx; nothing done\n",
      exitCode: 0,
    });
  });
});
