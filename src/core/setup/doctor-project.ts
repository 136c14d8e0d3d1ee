// `ctx doctor` checks of the project's Claude Code wiring: .mcp.json, the MCP approval, the hooks in
// .claude/settings.json, /fork-detect and .gitignore. Pure: file texts in, findings out.
import { describeError } from "../../errors.ts";
import { type Finding, fail, ok, warn } from "./doctor-report.ts";
import { gitignoreIgnoresCtx } from "./init/gitignore.ts";
import { CTX_HOOK_SPECS, CTX_MCP_SERVER_NAME } from "./init/hooks-spec.ts";
import { isJsonObject, type JsonObject, parseJsonObjectFile } from "./init/json-text.ts";
import { isCtxMcpServer } from "./init/mcp.ts";
import { INIT_FILES, type InitFileKey } from "./init/plan.ts";
import { isCtxHookHandler } from "./init/settings-hooks.ts";

export interface ProjectFacts {
  files: Record<InitFileKey, string | null>;
  /** ctx is enabled as a Claude Code plugin (enabledPlugins "ctx@…"), which wires it without init. */
  pluginEnabled: boolean;
  /** Why `command args` cannot start, or null when it can (found on PATH, file exists). */
  commandProblem: (command: string, args: readonly string[]) => string | null;
}

const NAME = CTX_MCP_SERVER_NAME;
// A hook timeout above this many seconds was almost certainly meant as milliseconds.
const MAX_SANE_TIMEOUT_SECONDS = 600;

export function checkProjectWiring(facts: ProjectFacts): Finding[] {
  return [checkMcpJson(facts), checkApproval(facts), checkHooks(facts), checkForkDetect(facts), checkGitignore(facts)];
}

/** A file read for a check: its object (null when absent or bad), or the failing finding a bad file makes. */
export interface ParsedForCheck {
  value: JsonObject | null;
  problem: Finding | null;
}

export function parseForCheck(file: string, text: string | null): ParsedForCheck {
  if (text === null) return { value: null, problem: null };
  try {
    return { value: parseJsonObjectFile(file, text).value, problem: null };
  } catch (error) {
    const fix = `fix the JSON in ${file} (\`claude doctor\` shows Claude Code's view)`;
    return { value: null, problem: fail("json", describeError(error), fix) };
  }
}

function checkMcpJson(facts: ProjectFacts): Finding {
  const { value: parsed, problem: bad } = parseForCheck(INIT_FILES.mcpJson, facts.files.mcpJson);
  if (bad) return bad;
  const servers = parsed?.mcpServers;
  const entry = isJsonObject(servers) ? servers[NAME] : undefined;
  if (entry === undefined) {
    if (facts.pluginEnabled) return ok("project-mcp", "MCP server: provided by the ctx plugin");
    return fail("project-mcp", `${INIT_FILES.mcpJson} has no "${NAME}" MCP server`, "ctx init");
  }
  if (!isCtxMcpServer(entry) || !isJsonObject(entry)) {
    return fail(
      "project-mcp",
      `mcpServers.${NAME} in ${INIT_FILES.mcpJson} is another server`,
      `rename it in ${INIT_FILES.mcpJson}, then ctx init`,
    );
  }
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  const problem = facts.commandProblem(String(entry.command), args);
  const shown = [entry.command, ...args].join(" ");
  if (problem !== null)
    return fail(
      "project-mcp",
      `MCP server runs \`${shown}\`, but ${problem}`,
      "ctx init   (rewrites it with the command found now)",
    );
  return ok("project-mcp", `MCP server in ${INIT_FILES.mcpJson}: \`${shown}\``);
}

function checkApproval(facts: ProjectFacts): Finding {
  if (facts.files.mcpJson === null && facts.pluginEnabled)
    return ok("project-mcp-approval", "MCP server approval: not needed for the plugin");
  const { value: parsed, problem: bad } = parseForCheck(INIT_FILES.settingsLocal, facts.files.settingsLocal);
  if (bad) return bad;
  const list = (key: string) => (Array.isArray(parsed?.[key]) ? (parsed?.[key] as unknown[]) : []);
  if (list("disabledMcpjsonServers").includes(NAME)) {
    return fail(
      "project-mcp-approval",
      `"${NAME}" is in disabledMcpjsonServers (${INIT_FILES.settingsLocal})`,
      `remove "${NAME}" from disabledMcpjsonServers in ${INIT_FILES.settingsLocal}`,
    );
  }
  if (list("enabledMcpjsonServers").includes(NAME) || parsed?.enableAllProjectMcpServers === true) {
    return ok("project-mcp-approval", `MCP server approved in ${INIT_FILES.settingsLocal}`);
  }
  return warn(
    "project-mcp-approval",
    "MCP server not approved yet: Claude Code will ask at start",
    "ctx init   (or approve it when Claude Code asks)",
  );
}

function checkHooks(facts: ProjectFacts): Finding {
  const { value: parsed, problem: bad } = parseForCheck(INIT_FILES.settings, facts.files.settings);
  if (bad) return bad;
  const hooks = isJsonObject(parsed?.hooks) ? parsed.hooks : {};
  const problems: string[] = [];
  let wired = 0;
  let firstHandler: JsonObject | null = null;
  let viaServer = 0;
  for (const spec of CTX_HOOK_SPECS) {
    const groups = Array.isArray(hooks[spec.event]) ? (hooks[spec.event] as unknown[]) : [];
    const handlers = groups.flatMap((group) => (isJsonObject(group) && Array.isArray(group.hooks) ? group.hooks : []));
    const ours = handlers.filter((handler) => isCtxHookHandler(handler)) as JsonObject[];
    const handler = ours[0];
    if (handler === undefined) {
      problems.push(`${spec.event} missing`);
      continue;
    }
    wired += 1;
    if (handler.type === "mcp_tool") viaServer += 1;
    else firstHandler ??= handler;
    if (typeof handler.timeout !== "number") problems.push(`${spec.event} has no timeout`);
    else if (handler.timeout > MAX_SANE_TIMEOUT_SECONDS)
      problems.push(`${spec.event} timeout ${handler.timeout} s (milliseconds by mistake? the unit is seconds)`);
  }
  if (wired === 0 && facts.pluginEnabled) return ok("project-hooks", "hooks: provided by the ctx plugin");
  if (firstHandler !== null) {
    const args = Array.isArray(firstHandler.args) ? firstHandler.args.map(String) : [];
    const problem = facts.commandProblem(String(firstHandler.command), args);
    if (problem !== null) problems.push(`hook command \`${[firstHandler.command, ...args].join(" ")}\`: ${problem}`);
  }
  if (viaServer > 0 && !ctxServerWired(facts))
    problems.push(
      `${viaServer} hook(s) call ctx's MCP server, which ${INIT_FILES.mcpJson} does not wire (they would be skipped)`,
    );
  if (problems.length > 0)
    return fail("project-hooks", `hooks in ${INIT_FILES.settings}: ${problems.join("; ")}`, "ctx init");
  return ok(
    "project-hooks",
    `hooks in ${INIT_FILES.settings}: all ${CTX_HOOK_SPECS.length} wired, each with a timeout`,
  );
}

function ctxServerWired(facts: ProjectFacts): boolean {
  const { value } = parseForCheck(INIT_FILES.mcpJson, facts.files.mcpJson);
  const servers = isJsonObject(value?.mcpServers) ? value.mcpServers : {};
  return isCtxMcpServer(servers[NAME]) || facts.pluginEnabled;
}

function checkForkDetect(facts: ProjectFacts): Finding {
  if (facts.files.forkDetect !== null)
    return ok("project-fork-detect", `/fork-detect command: ${INIT_FILES.forkDetect}`);
  if (facts.pluginEnabled) return ok("project-fork-detect", "/ctx:fork-detect command: provided by the ctx plugin");
  return warn("project-fork-detect", `${INIT_FILES.forkDetect} is missing (no /fork-detect)`, "ctx init");
}

function checkGitignore(facts: ProjectFacts): Finding {
  if (facts.files.gitignore !== null && gitignoreIgnoresCtx(facts.files.gitignore))
    return ok("gitignore", ".gitignore ignores .ctx/");
  return warn(
    "gitignore",
    ".gitignore does not ignore .ctx/ (your saved conversations could be committed)",
    "ctx init",
  );
}
