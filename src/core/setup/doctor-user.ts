// `ctx doctor` checks of user-level wiring: ctx hooks in ~/.claude/settings.json, ctx MCP servers in
// ~/.claude.json (user and local scope), folder trust, and the ctx plugin. Informational unless ctx would
// run twice or a local-scope server shadows the project's.

import { parseForCheck } from "./doctor-project.ts";
import { type Finding, ok, warn } from "./doctor-report.ts";
import { CTX_MCP_SERVER_NAME } from "./init/hooks-spec.ts";
import { isJsonObject, type JsonObject } from "./init/json-text.ts";
import { isCtxHookHandler } from "./init/settings-hooks.ts";

export interface UserFacts {
  project: string;
  settingsPath: string;
  settings: string | null;
  claudeJsonPath: string;
  claudeJson: string | null;
  /** The project's .claude/settings.json, to compare ctx handlers with. */
  projectSettings: string | null;
}

/** `enabledPlugins: { "ctx@<marketplace>": true }` in any of the given settings texts. */
export function isCtxPluginEnabled(settingsTexts: ReadonlyArray<string | null>): boolean {
  return settingsTexts.some((text) => {
    const plugins = parseForCheck("settings", text).value?.enabledPlugins;
    return isJsonObject(plugins) && Object.entries(plugins).some(([key, on]) => key.startsWith("ctx@") && on === true);
  });
}

/** "command args…" of every ctx hook handler, keyed by event. */
function ctxHandlersByEvent(settings: JsonObject | null): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const hooks = settings?.hooks;
  if (!isJsonObject(hooks)) return found;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) continue;
      for (const handler of group.hooks) {
        if (!isCtxHookHandler(handler) || !isJsonObject(handler)) continue;
        const line = JSON.stringify([handler.command, handler.args ?? []]);
        found.set(event, [...(found.get(event) ?? []), line]);
      }
    }
  }
  return found;
}

export function checkUserWiring(facts: UserFacts, pluginEnabled: boolean): Finding[] {
  const findings: Finding[] = [];
  const user = parseForCheck(facts.settingsPath, facts.settings);
  const userHooks = ctxHandlersByEvent(user.value);
  const projectHooks = ctxHandlersByEvent(parseForCheck(".claude/settings.json", facts.projectSettings).value);
  if (user.problem) findings.push({ ...user.problem, id: "user-hooks", status: "warn" });
  else if (userHooks.size === 0)
    findings.push(ok("user-hooks", `no ctx hooks in ${facts.settingsPath} (project wiring only)`));
  else {
    const events = [...userHooks.keys()];
    const differ = events.filter((event) => {
      const mine = projectHooks.get(event);
      return mine !== undefined && !userHooks.get(event)?.every((line) => mine.includes(line));
    });
    if (differ.length === 0) {
      findings.push(
        ok(
          "user-hooks",
          `ctx hooks also in ${facts.settingsPath} (${events.join(", ")}): they apply to every project; identical handlers run once`,
        ),
      );
    } else {
      findings.push(
        warn(
          "user-hooks",
          `ctx hooks in ${facts.settingsPath} differ from this project's (${differ.join(", ")}): both run, so ctx runs twice`,
          `remove ctx's entries from "hooks" in ${facts.settingsPath}, or \`ctx init --remove\` here`,
        ),
      );
    }
  }
  if (pluginEnabled && projectHooks.size > 0) {
    findings.push(
      warn(
        "plugin",
        "ctx is enabled as a Claude Code plugin and also wired by ctx init: its hooks run twice",
        "ctx init --remove   (keeps the plugin), or disable the plugin with /plugin",
      ),
    );
  } else if (pluginEnabled) findings.push(ok("plugin", "ctx plugin enabled"));
  findings.push(...checkClaudeJson(facts));
  return findings;
}

function checkClaudeJson(facts: UserFacts): Finding[] {
  const { value: parsed, problem } = parseForCheck(facts.claudeJsonPath, facts.claudeJson);
  if (problem) return [{ ...problem, id: "user-mcp", status: "warn" }];
  if (parsed === null)
    return [ok("user-mcp", `${facts.claudeJsonPath} not found (Claude Code has not run as this user yet)`)];
  const findings: Finding[] = [];
  const userServers = isJsonObject(parsed.mcpServers) ? parsed.mcpServers : {};
  const projects = isJsonObject(parsed.projects) ? parsed.projects : {};
  const entry = projects[facts.project];
  const projectEntry = isJsonObject(entry) ? entry : {};
  const localServers = isJsonObject(projectEntry.mcpServers) ? projectEntry.mcpServers : {};
  if (localServers[CTX_MCP_SERVER_NAME] !== undefined) {
    findings.push(
      warn(
        "user-mcp",
        `a local-scope "${CTX_MCP_SERVER_NAME}" MCP server in ${facts.claudeJsonPath} overrides .mcp.json in this project`,
        `claude mcp remove ${CTX_MCP_SERVER_NAME} -s local`,
      ),
    );
  } else if (userServers[CTX_MCP_SERVER_NAME] !== undefined) {
    findings.push(
      ok(
        "user-mcp",
        `"${CTX_MCP_SERVER_NAME}" is also a user-scope MCP server in ${facts.claudeJsonPath}; in this project .mcp.json's entry wins`,
      ),
    );
  } else findings.push(ok("user-mcp", `no other "${CTX_MCP_SERVER_NAME}" MCP server in ${facts.claudeJsonPath}`));
  if (projectEntry.hasTrustDialogAccepted !== true) {
    findings.push(
      ok("trust", "Claude Code will ask once whether you trust this folder (project MCP servers start after that)"),
    );
  }
  return findings;
}
