// ctx_guard_tick: what `ctx hook post-tool-use` does (the rolling checkpoint, then the context guard), done in
// the already-running `ctx serve` so that a Claude Code `"type": "mcp_tool"` hook costs no process per tool
// call (docs/mcp-tool-hooks.md). It answers at once: the call is measured after the answer, once the reply that
// made it has reached the transcript (../background-guard.ts), and the guard's note goes out with the next tick
// (one call late). The text is the hook's JSON output when a note is waiting (Claude Code reads a hook tool's
// text the way it reads a command hook's stdout: only JSON's additionalContext reaches the model), else empty;
// with hook_event_name "Stop" it is the checkpoint tick, after the session's measurements, and the user's line.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import * as z from "zod/mini";
import { insideClaudeProjects } from "../../config/claude-paths.ts";
import { sessionIdField, transcriptPathField } from "../../core/transcript/hook-fields.ts";
import { CtxError } from "../../errors.ts";
import { notRegular } from "../../store/files/safe-path.ts";
import { postToolUseHookOutput } from "../../store/guard/after-tool-call.ts";
import { checkpointTick } from "../../store/guard/checkpoint-tick.ts";
import { takeHandedOn, takeUserLine } from "../../store/guard/tick-handoff.ts";
import type { GuardDeps } from "../../store/guard/types.ts";
import { readSessionsSeen } from "../../store/sessions/seen.ts";
import { awaitPathExists } from "../../store/transcript/await-tool-use.ts";
import { defineTool } from "../define-tool.ts";
import type { ServerDeps } from "../deps.ts";

/** How a hook passes a field of its input: Claude Code fills `"${field}"` in an mcp_tool hook's input. */
const fromHook = (field: string) => `"\${${field}}"`;

// The hook input's own fields (core/transcript/hook-fields.ts), bounded: here they come from a model too.
export const GuardTickInputSchema = {
  session_id: sessionIdField()
    .check(z.maxLength(200))
    .check(z.describe(`The Claude Code session (in a hook: ${fromHook("session_id")}).`)),
  transcript_path: transcriptPathField()
    .check(z.minLength(1), z.maxLength(4096))
    .check(
      z.describe(
        "The session's transcript, a .jsonl under Claude Code's projects folder or the one ctx recorded for the " +
          `session (in a hook: ${fromHook("transcript_path")}).`,
      ),
    ),
  tool_use_id: z
    .optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{0,200}$/, { error: "is not a tool use id" })))
    .check(
      z.describe(
        `The tool call (in a hook: ${fromHook("tool_use_id")}): the measurement after the answer waits (bounded) ` +
          "until the transcript holds the reply that made it, so the guard measures that reply, not the one before.",
      ),
    ),
  hook_event_name: z
    .optional(z.enum(["PostToolUse", "Stop"]))
    .check(
      z.describe(
        `The hook event (in a hook: ${fromHook("hook_event_name")}): PostToolUse (default) measures the call after ` +
          "answering (checkpoint and guard); Stop ticks the checkpoint only, once the session's measurements are done.",
      ),
    ),
};

export const GuardTickResultSchema = z.object({
  event: z.enum(["PostToolUse", "Stop"]),
  /**
   * The guard's note for Claude (the hook's additionalContext) from the measurements finished since the last
   * tick (the calls before this one), or null when it had nothing to say.
   */
  notice: z.nullable(z.string()),
  /** The line for the user (the top two tiers), or null. */
  systemMessage: z.nullable(z.string()),
  /** What failed in those measurements without stopping the rest ("checkpoint tick failed: …"). */
  failures: z.array(z.string()),
});
export type GuardTickResult = z.infer<typeof GuardTickResultSchema>;

function guardDeps(deps: ServerDeps): GuardDeps {
  return {
    projectRoot: deps.projectRoot,
    config: deps.config,
    now: deps.now,
    logger: deps.logger,
    env: deps.env ?? process.env,
  };
}

/**
 * The transcript a tick may read: a regular file under Claude Code's projects folder (links resolved), or
 * the one ctx recorded for this session (SessionStart). Anything else is refused: the arguments come from a
 * hook's interpolation or from a model, and neither may make ctx read an arbitrary file.
 */
export async function checkTickTranscript(deps: ServerDeps, sessionId: string, path: string): Promise<string> {
  if (!path.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(path)) {
    throw new CtxError("USAGE", `transcript_path must be absolute, got ${JSON.stringify(path)}`, {
      hint: `pass Claude Code's own path: "transcript_path": ${fromHook("transcript_path")} in the hook's input`,
    });
  }
  // The first tool call's tick can run before Claude Code has created the file (the checks below resolve it):
  // wait for it, bounded.
  const exists = await awaitPathExists(path);
  const env = deps.env ?? process.env;
  if (!insideClaudeProjects(env, path)) {
    const seen = await readSessionsSeen(deps.projectRoot).catch(() => null);
    const recorded = seen?.sessions.find((s) => s.sessionId === sessionId)?.transcriptPath ?? null;
    if (recorded === null || resolve(recorded) !== resolve(path)) {
      throw new CtxError(
        "USAGE",
        `${path} is neither under Claude Code's projects folder nor the transcript recorded for session ${sessionId}`,
        {
          hint: `ctx_guard_tick reads only the session's own transcript; wire it with ${fromHook("transcript_path")}`,
        },
      );
    }
  }
  const info = exists ? statSync(path, { throwIfNoEntry: false }) : undefined;
  if (info === undefined) {
    throw new CtxError("NOT_FOUND", `no transcript at ${path}`, {
      hint: "Claude Code writes it with the session's first message; the next tick will find it",
    });
  }
  if (!info.isFile()) throw notRegular(path); // a FIFO would block the read
  return path;
}

export const guardTickTool = defineTool({
  name: "ctx_guard_tick",
  title: "ctx guard tick",
  description:
    "For Claude Code hooks, not for the conversation: ctx's work after a tool call, done inside this server so " +
    'a `"type": "mcp_tool"` PostToolUse hook costs no process. Answers at once; after answering, once the ' +
    "transcript holds the reply that made the call (tool_use_id, bounded wait), counts the messages toward a " +
    "rolling checkpoint every checkpoints.intervalMessages, steps the context guard (context-window tier, " +
    "velocity) and, when the tier rises, saves, checkpoints or snapshots as `ctx hook post-tool-use` does. " +
    "Returns the hook's JSON output (additionalContext: the guard's note) when an earlier call's measurement " +
    "spoke, else empty text. With hook_event_name Stop, only the checkpoint counter and the user's line.",
  input: GuardTickInputSchema,
  output: GuardTickResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handle: async ({ session_id, transcript_path, tool_use_id, hook_event_name }, deps) => {
    const event = hook_event_name ?? "PostToolUse";
    const transcriptPath = await checkTickTranscript(deps, session_id, transcript_path);
    const input = { session_id, transcript_path: transcriptPath };
    if (event === "Stop") {
      // The turn's last calls are measured first, so their checkpoint count and the user's line are in.
      await deps.guardTicks.settle(session_id);
      await checkpointTick(input, guardDeps(deps));
      const systemMessage = takeUserLine(deps.projectRoot, session_id);
      return {
        text: systemMessage === null ? "" : JSON.stringify({ systemMessage }),
        structured: { event, notice: null, systemMessage, failures: [] },
      };
    }
    // What the calls before this one left (measured after their ticks answered), then this call's measurement,
    // after the answer.
    const { note, failures } = takeHandedOn(deps.projectRoot, session_id);
    deps.guardTicks.accept(
      input,
      tool_use_id === undefined || tool_use_id === "" ? null : tool_use_id,
      guardDeps(deps),
    );
    // Nothing to say and something failed: an error result, so Claude Code reports the hook's failure.
    if (note === null && failures.length > 0)
      throw new CtxError("INTERNAL", failures.join("; "), {
        hint: "the same work as `ctx hook post-tool-use`; `ctx doctor` checks the project's .ctx folder",
      });
    return {
      text: note === null ? "" : JSON.stringify(postToolUseHookOutput(note)),
      structured: {
        event,
        notice: note?.additionalContext ?? null,
        systemMessage: note?.systemMessage ?? null,
        failures,
      },
    };
  },
});
