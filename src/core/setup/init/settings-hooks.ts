// Merging ctx's hooks into a Claude Code settings object and taking them out again. The user's own hooks,
// matcher groups and other settings stay as they are; ctx's handlers are recognised by their command
// (isCtxInvocation), so a re-run updates them in place and `--remove` removes exactly them.
import { CtxError } from "../../../errors.ts";
import { isCtxInvocation } from "./command-choice.ts";
import {
  buildHookHandler,
  buildMatcherGroup,
  CTX_HOOK_SPECS,
  CTX_MCP_SERVER_NAME,
  type CtxCommand,
  type CtxHookSpec,
  type HookWiring,
} from "./hooks-spec.ts";
import { isJsonObject, type JsonObject, jsonEqual } from "./json-text.ts";

export interface EditResult {
  value: JsonObject;
  details: string[];
}

interface Located {
  group: number;
  handler: number;
}

export function isCtxHookHandler(handler: unknown, current?: CtxCommand): boolean {
  if (!isJsonObject(handler)) return false;
  if (handler.type === "mcp_tool") return isCtxMcpToolHandler(handler);
  if (handler.type !== undefined && handler.type !== "command") return false;
  return isCtxInvocation(handler.command, handler.args, "hook", current);
}

/** An `mcp_tool` handler calling one of ctx's tools on the `ctx` server. */
export function isCtxMcpToolHandler(handler: JsonObject): boolean {
  return (
    handler.type === "mcp_tool" &&
    handler.server === CTX_MCP_SERVER_NAME &&
    typeof handler.tool === "string" &&
    handler.tool.startsWith("ctx_")
  );
}

/** `"*"`, `""` and no matcher all mean "everything" to Claude Code. */
export function sameMatcher(a: unknown, b: unknown): boolean {
  const everything = (m: unknown) => m === undefined || m === "" || m === "*";
  return (everything(a) && everything(b)) || a === b;
}

export function mergeCtxHooks(
  settings: JsonObject,
  cmd: CtxCommand,
  file: string,
  wiring: HookWiring = "command",
): EditResult {
  const value = structuredClone(settings);
  const details: string[] = [];
  if (value.hooks === undefined) value.hooks = {};
  const hooks = value.hooks;
  if (!isJsonObject(hooks)) throw shapeError(file, "hooks", "an object");
  for (const event of Object.keys(hooks)) {
    if (CTX_HOOK_SPECS.some((spec) => spec.event === event)) continue;
    const removed = removeHandlersFromEvent(hooks, event, cmd);
    if (removed > 0) details.push(`- hooks.${event}: ctx handler ctx no longer uses`);
  }
  for (const spec of CTX_HOOK_SPECS) mergeEvent(hooks, spec, cmd, wiring, file, details);
  return { value, details };
}

/**
 * ctx's handler for one event. An existing one is updated in place: command and args are ctx's, while the
 * matcher group it sits in and its timeout are the person's (they may have narrowed PostToolUse to "Bash").
 * Only an event without any ctx handler gets a new group with ctx's defaults.
 */
function mergeEvent(
  hooks: JsonObject,
  spec: CtxHookSpec,
  cmd: CtxCommand,
  wiring: HookWiring,
  file: string,
  details: string[],
): void {
  const groups = hooks[spec.event] ?? [];
  if (!Array.isArray(groups)) throw shapeError(file, `hooks.${spec.event}`, "an array of matcher groups");
  hooks[spec.event] = groups;
  const found = locateCtxHandlers(groups, cmd, file, spec.event);
  const label = `hooks.${spec.event}`;
  // Among duplicates, the one in ctx's own matcher group wins; otherwise the first.
  const target = found.find((at) => sameMatcher((groups[at.group] as JsonObject).matcher, spec.matcher)) ?? found[0];
  if (target === undefined) {
    const summary = `${spec.matcher === undefined ? "" : `matcher ${spec.matcher}, `}timeout ${spec.timeout} s`;
    const group = buildMatcherGroup(spec, cmd, wiring);
    groups.push(group);
    const how = (group.hooks as JsonObject[])[0]?.type === "mcp_tool" ? `, via ctx's MCP server` : "";
    details.push(`+ ${label}: ${spec.arg} hook (${summary}${how})`);
    return;
  }
  const handlers = (groups[target.group] as JsonObject).hooks as unknown[];
  const existing = handlers[target.handler] as JsonObject;
  const updated = updateHandler(existing, spec, cmd, wiring);
  if (!jsonEqual(updated, existing)) {
    handlers[target.handler] = updated;
    details.push(`~ ${label}: ${spec.arg} hook ${describeUpdate(existing, updated)}`);
  }
  const duplicates = found.filter((at) => at !== target);
  if (duplicates.length > 0) {
    removeLocated(groups, duplicates);
    details.push(`- ${label}: ${duplicates.length} duplicate ctx handler(s)`);
  }
}

/**
 * ctx owns type, command and args (or server, tool and input); a timeout the person set stays (doctor flags an
 * absurd one). A change of type keeps nothing of the old handler's own keys but the timeout.
 */
function updateHandler(existing: JsonObject, spec: CtxHookSpec, cmd: CtxCommand, wiring: HookWiring): JsonObject {
  const fresh = buildHookHandler(spec, cmd, wiring) as unknown as JsonObject;
  const timeout = typeof existing.timeout === "number" ? existing.timeout : fresh.timeout;
  const sameType = (existing.type ?? "command") === fresh.type;
  if (!sameType) {
    const kept = Object.fromEntries(
      Object.entries(existing).filter(([key]) => !HANDLER_KEYS_OWNED_BY_CTX.has(key)),
    ) as JsonObject;
    return { ...kept, ...fresh, timeout };
  }
  return { ...existing, ...fresh, timeout };
}

const HANDLER_KEYS_OWNED_BY_CTX = new Set(["type", "command", "args", "server", "tool", "input", "timeout"]);

function describeUpdate(before: JsonObject, after: JsonObject): string {
  const what: string[] = [];
  if ((before.type ?? "command") !== after.type) {
    return after.type === "mcp_tool" ? "now a call to ctx's MCP server (no process)" : "now a ctx hook process";
  }
  if (!jsonEqual([before.command, before.args], [after.command, after.args])) what.push("command updated");
  if (before.timeout === undefined) what.push(`timeout ${after.timeout} s added`);
  if (before.type === undefined) what.push('type "command" added');
  return what.length > 0 ? what.join(", ") : "updated";
}

/** Takes every ctx handler out of every event; drops groups, events and `hooks` only when ctx emptied them. */
export function removeCtxHooks(settings: JsonObject, cmd?: CtxCommand): EditResult {
  const value = structuredClone(settings);
  const details: string[] = [];
  const hooks = value.hooks;
  if (!isJsonObject(hooks)) return { value, details };
  for (const event of Object.keys(hooks)) {
    const removed = removeHandlersFromEvent(hooks, event, cmd);
    if (removed > 0) details.push(`- hooks.${event}: ctx's handler`);
  }
  if (details.length > 0 && Object.keys(hooks).length === 0) delete value.hooks;
  return { value, details };
}

function removeHandlersFromEvent(hooks: JsonObject, event: string, cmd: CtxCommand | undefined): number {
  const groups = hooks[event];
  if (!Array.isArray(groups)) return 0;
  const found = locateCtxHandlers(groups, cmd);
  removeLocated(groups, found);
  if (found.length > 0 && groups.length === 0) delete hooks[event];
  return found.length;
}

function locateCtxHandlers(groups: unknown[], cmd?: CtxCommand, file?: string, event?: string): Located[] {
  const found: Located[] = [];
  groups.forEach((group, g) => {
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) {
      if (file !== undefined) throw shapeError(file, `hooks.${event}[${g}]`, 'a matcher group { "hooks": [ … ] }');
      return;
    }
    group.hooks.forEach((handler, h) => {
      if (isCtxHookHandler(handler, cmd)) found.push({ group: g, handler: h });
    });
  });
  return found;
}

/** Removes handlers (last first, so indexes stay valid); a group ctx emptied goes too. */
function removeLocated(groups: unknown[], found: readonly Located[]): void {
  const order = [...found].sort((a, b) => b.group - a.group || b.handler - a.handler);
  for (const at of order) {
    const handlers = (groups[at.group] as JsonObject).hooks as unknown[];
    handlers.splice(at.handler, 1);
    if (handlers.length === 0) groups.splice(at.group, 1);
  }
}

function shapeError(file: string, path: string, expected: string): CtxError {
  return new CtxError("INIT_CONFLICT", `${file}: ${path} is not ${expected}`, {
    hint: `fix ${path} in ${file} by hand (see Claude Code's hooks documentation) and run the command again; nothing was written`,
  });
}
