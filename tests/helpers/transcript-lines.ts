// Small builders of Claude Code transcript lines in the shape the real fixtures show (2.1.x), for tests
// that need a session about files in a temp project.
const envelope = (sessionId: string, cwd: string, uuid: string, timestamp: string) => ({
  parentUuid: null,
  isSidechain: false,
  userType: "external",
  cwd,
  sessionId,
  version: "2.1.330",
  gitBranch: "main",
  uuid,
  timestamp,
});

export interface LineContext {
  sessionId: string;
  cwd: string;
}

let counter = 0;
const nextTime = () => new Date(Date.UTC(2026, 10, 22, 10, 0, counter++)).toISOString();

export function userPrompt(ctx: LineContext, text: string): string {
  return userLine(ctx, `u-${counter}`, text, nextTime());
}

function userLine(ctx: LineContext, uuid: string, text: string, timestamp: string): string {
  return JSON.stringify({
    ...envelope(ctx.sessionId, ctx.cwd, uuid, timestamp),
    type: "user",
    message: { role: "user", content: text },
  });
}

function assistantLine(
  ctx: LineContext,
  uuid: string,
  id: string,
  content: unknown[],
  stopReason: string,
  usage: object,
  timestamp = nextTime(),
): string {
  return JSON.stringify({
    ...envelope(ctx.sessionId, ctx.cwd, uuid, timestamp),
    type: "assistant",
    requestId: `req_${id}`,
    message: {
      model: "claude-opus-4-6",
      id: `msg_${id}`,
      type: "message",
      role: "assistant",
      content,
      stop_reason: stopReason,
      usage,
    },
  });
}

/** `usage` overrides the default (10,003 tokens in context), e.g. to drive the context guard. */
export function assistantToolUse(
  ctx: LineContext,
  id: string,
  name: string,
  input: Record<string, unknown>,
  usage: object = {
    input_tokens: 3,
    cache_creation_input_tokens: 1_000,
    cache_read_input_tokens: 9_000,
    output_tokens: 50,
  },
): string {
  return assistantLine(ctx, `a-${counter}`, id, [{ type: "tool_use", id, name, input }], "tool_use", usage);
}

export function toolResult(ctx: LineContext, id: string, content: string, isError = false): string {
  const uuid = `r-${counter}`;
  return JSON.stringify({
    ...envelope(ctx.sessionId, ctx.cwd, uuid, nextTime()),
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
  });
}

/** `usage` overrides the default (11,503 tokens in context). */
export function assistantText(
  ctx: LineContext,
  id: string,
  text: string,
  usage: object = {
    input_tokens: 3,
    cache_creation_input_tokens: 1_500,
    cache_read_input_tokens: 10_000,
    output_tokens: 80,
  },
): string {
  return assistantLine(ctx, `t-${counter}`, id, [{ type: "text", text }], "end_turn", usage);
}

export function compactBoundary(ctx: LineContext, preTokens: number): string {
  return JSON.stringify({
    ...envelope(ctx.sessionId, ctx.cwd, `b-${counter}`, nextTime()),
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    level: "info",
    compactMetadata: { trigger: "manual", preTokens },
  });
}

/** The summary entry Claude Code writes right after a compact boundary (`isCompactSummary`). */
export function compactSummary(ctx: LineContext, text: string): string {
  return JSON.stringify({
    ...envelope(ctx.sessionId, ctx.cwd, `s-${counter}`, nextTime()),
    type: "user",
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: {
      role: "user",
      content: `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${text}`,
    },
  });
}

/**
 * A whole two-line session at a given time: a prompt, and a minute later its reply (uuids `<id>-u`, `<id>-a`), as the
 * tests of time words need sessions active on chosen days.
 */
export function timedExchange(ctx: LineContext, at: Date, prompt: string, reply: string): string {
  const id = ctx.sessionId;
  const usage = { input_tokens: 10, output_tokens: 10 };
  const replyAt = new Date(at.getTime() + 60_000).toISOString();
  return `${[
    userLine(ctx, `${id}-u`, prompt, at.toISOString()),
    assistantLine(ctx, `${id}-a`, id, [{ type: "text", text: reply }], "end_turn", usage, replyAt),
  ].join("\n")}\n`;
}
