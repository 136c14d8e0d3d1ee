// `ctx init --statusline`: Claude Code's `statusLine` setting pointed at `ctx statusline` (a shell command
// string, unlike hooks' exec form). A status line that is not ctx's is the person's: kept unless --force.
// `--remove` takes out ctx's status line only.
import { quoteShellWord } from "../../shell/quote.ts";
import { isCtxInvocation } from "./command-choice.ts";
import type { CtxCommand } from "./hooks-spec.ts";
import { isJsonObject, type JsonObject, jsonEqual } from "./json-text.ts";
import type { EditResult } from "./settings-hooks.ts";

export function statusLineCommand(cmd: CtxCommand): string {
  return [cmd.command, ...cmd.prefixArgs, "statusline"].map(quoteShellWord).join(" ");
}

export function isCtxStatusLine(value: unknown, current?: CtxCommand): boolean {
  return isJsonObject(value) && isCtxInvocation(value.command, undefined, "statusline", current);
}

export function mergeStatusLine(settings: JsonObject, cmd: CtxCommand, force: boolean): EditResult {
  const value = structuredClone(settings);
  const wanted = { type: "command", command: statusLineCommand(cmd) };
  const existing = value.statusLine;
  if (existing !== undefined && !isCtxStatusLine(existing, cmd) && !force) {
    return { value, details: ["! statusLine: another status line is set; kept (pass --force to replace it)"] };
  }
  // Keep the person's padding / refreshInterval on ctx's own entry.
  const merged = isCtxStatusLine(existing, cmd) && isJsonObject(existing) ? { ...existing, ...wanted } : wanted;
  if (jsonEqual(merged, existing)) return { value, details: [] };
  value.statusLine = merged;
  const verb = existing === undefined ? "+" : "~";
  return { value, details: [`${verb} statusLine: ${wanted.command}`] };
}

export function removeStatusLine(settings: JsonObject, cmd: CtxCommand): EditResult {
  if (!isCtxStatusLine(settings.statusLine, cmd)) return { value: settings, details: [] };
  const value = structuredClone(settings);
  delete value.statusLine;
  return { value, details: ["- statusLine: ctx statusline"] };
}
