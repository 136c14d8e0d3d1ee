// Every hook checks its input with the checker compiled from its schema in ./schemas.ts (no zod loaded): the same
// verdict and the same first problem as the zod path (./define-hook.ts) gives for that schema.
import { describe, expect, it } from "vitest";
import { hook as postToolUseHook } from "../handlers/post-tool-use.hook.ts";
import { hook as preCompactHook } from "../handlers/pre-compact.hook.ts";
import { hook as sessionStartHook } from "../handlers/session-start.hook.ts";
import { hook as stopHook } from "../handlers/stop.hook.ts";
import { checkWithSchema } from "./define-hook.ts";
import { PostToolUseInputSchema, PreCompactInputSchema, SessionStartInputSchema, StopInputSchema } from "./schemas.ts";

const postToolUse = postToolUseHook.check;
const stop = stopHook.check;
const base = { session_id: "s", transcript_path: "/t", cwd: "/p", hook_event_name: "PostToolUse" };

describe("the hooks' input checks", () => {
  it.each([
    [{ ...base }, "tool_name: expected string"],
    [{ ...base, tool_name: "Bash", session_id: "a\u0000" }, "session_id: holds a control character"],
    [{ ...base, tool_name: "Bash", cwd: "" }, "cwd: too_small"],
    [{ ...base, tool_name: "Bash", duration_ms: "5" }, "duration_ms: expected number"],
    ["text", "input: expected object"],
  ])("PostToolUse %j: %s, as zod says", (raw, problem) => {
    expect(postToolUse(raw)).toEqual({ ok: false, problem });
    expect(checkWithSchema(PostToolUseInputSchema(), raw)).toEqual({ ok: false, problem });
  });

  it("keeps the fields Claude Code adds in later versions", () => {
    const raw = { ...base, tool_name: "Bash", later_field: { a: 1 } };
    expect(postToolUse(raw)).toEqual({ ok: true, input: raw });
  });

  it("Stop: a control character in the transcript path, a message of another kind", () => {
    const stopBase = { ...base, hook_event_name: "Stop" };
    for (const [raw, problem] of [
      [{ ...stopBase, transcript_path: "/t\n" }, "transcript_path: holds a control character"],
      [{ ...stopBase, last_assistant_message: 3 }, "last_assistant_message: expected string"],
    ] as const) {
      expect(stop(raw)).toEqual({ ok: false, problem });
      expect(checkWithSchema(StopInputSchema(), raw)).toEqual({ ok: false, problem });
    }
    expect(stop({ ...stopBase, last_assistant_message: null })).toMatchObject({ ok: true });
  });

  it.each([
    [{ ...base, hook_event_name: "SessionStart" }, "source: expected string"],
    [{ ...base, hook_event_name: "SessionStart", source: "compact", session_id: "" }, "session_id: too_small"],
    [{ ...base, hook_event_name: "SessionStart", source: "compact", model: 4 }, "model: expected string"],
  ])("SessionStart %j: %s, as zod says", (raw, problem) => {
    expect(sessionStartHook.check(raw)).toEqual({ ok: false, problem });
    expect(checkWithSchema(SessionStartInputSchema(), raw)).toEqual({ ok: false, problem });
  });

  it("PreCompact: the trigger is required; custom instructions may be null", () => {
    const raw = { ...base, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null };
    expect(preCompactHook.check(raw)).toEqual(checkWithSchema(PreCompactInputSchema(), raw));
    const { trigger: _, ...without } = raw;
    expect(preCompactHook.check(without)).toEqual({ ok: false, problem: "trigger: expected string" });
    expect(checkWithSchema(PreCompactInputSchema(), without)).toEqual({
      ok: false,
      problem: "trigger: expected string",
    });
  });
});
