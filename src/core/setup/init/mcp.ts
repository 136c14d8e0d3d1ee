// The project MCP server entry (`.mcp.json` mcpServers.ctx) and its approval
// (`.claude/settings.local.json` enabledMcpjsonServers). Every other server and field stays untouched.
import { CtxError } from "../../../errors.ts";
import { isCtxInvocation } from "./command-choice.ts";
import { buildMcpServerEntry, CTX_MCP_SERVER_NAME, type CtxCommand, describeCommand } from "./hooks-spec.ts";
import { isJsonObject, type JsonObject, jsonEqual } from "./json-text.ts";
import type { EditResult } from "./settings-hooks.ts";

const NAME = CTX_MCP_SERVER_NAME;

export function isCtxMcpServer(entry: unknown, current?: CtxCommand): boolean {
  if (!isJsonObject(entry)) return false;
  if (entry.type !== undefined && entry.type !== "stdio") return false;
  return isCtxInvocation(entry.command, entry.args ?? [], "serve", current);
}

export function mergeMcpServer(mcpJson: JsonObject, cmd: CtxCommand, file: string): EditResult {
  const value = structuredClone(mcpJson);
  if (value.mcpServers === undefined) value.mcpServers = {};
  const servers = value.mcpServers;
  if (!isJsonObject(servers)) throw conflict(file, "mcpServers is not an object", "fix it by hand");
  const existing = servers[NAME];
  const entry = buildMcpServerEntry(cmd);
  if (existing === undefined) {
    servers[NAME] = entry;
    return { value, details: [`+ mcpServers.${NAME}: ${describeCommand(cmd)} serve`] };
  }
  if (!isCtxMcpServer(existing, cmd)) {
    const what = isJsonObject(existing) && typeof existing.command === "string" ? ` (command ${existing.command})` : "";
    throw conflict(
      file,
      `mcpServers.${NAME} is another server${what}`,
      `rename or remove that entry (ctx needs the name "${NAME}": its tools are mcp__${NAME}__*)`,
    );
  }
  // Fields the user added (env, timeout) stay; ctx owns type, command and args.
  const updated = { ...(existing as JsonObject), ...entry };
  if (jsonEqual(updated, existing)) return { value, details: [] };
  servers[NAME] = updated;
  return { value, details: [`~ mcpServers.${NAME}: now ${describeCommand(cmd)} serve`] };
}

export function removeMcpServer(mcpJson: JsonObject, cmd?: CtxCommand): EditResult {
  const value = structuredClone(mcpJson);
  const servers = value.mcpServers;
  if (!isJsonObject(servers) || !isCtxMcpServer(servers[NAME], cmd)) return { value, details: [] };
  delete servers[NAME];
  if (Object.keys(servers).length === 0) delete value.mcpServers;
  return { value, details: [`- mcpServers.${NAME}`] };
}

/** Approves the project server so Claude Code does not ask (it still asks once to trust the folder). */
export function mergeEnabledServer(localSettings: JsonObject, file: string): EditResult {
  const value = structuredClone(localSettings);
  const details: string[] = [];
  const enabled = value.enabledMcpjsonServers ?? [];
  if (!Array.isArray(enabled)) throw conflict(file, "enabledMcpjsonServers is not an array", "fix it by hand");
  if (!enabled.includes(NAME)) {
    value.enabledMcpjsonServers = [...enabled, NAME];
    details.push(`+ enabledMcpjsonServers: "${NAME}"`);
  }
  if (Array.isArray(value.disabledMcpjsonServers) && value.disabledMcpjsonServers.includes(NAME)) {
    details.push(`! "${NAME}" is also in disabledMcpjsonServers; take it out there, or Claude Code will not start ctx`);
  }
  return { value, details };
}

export function removeEnabledServer(localSettings: JsonObject): EditResult {
  const value = structuredClone(localSettings);
  const enabled = value.enabledMcpjsonServers;
  if (!Array.isArray(enabled) || !enabled.includes(NAME)) return { value, details: [] };
  const rest = enabled.filter((name) => name !== NAME);
  if (rest.length === 0) delete value.enabledMcpjsonServers;
  else value.enabledMcpjsonServers = rest;
  return { value, details: [`- enabledMcpjsonServers: "${NAME}"`] };
}

function conflict(file: string, problem: string, fix: string): CtxError {
  return new CtxError("INIT_CONFLICT", `${file}: ${problem}`, {
    hint: `${fix} in ${file}, then run the command again; nothing was written`,
  });
}
