// The Claude Code plugin files at the repository root (.claude-plugin/, hooks/, commands/), generated from the same
// hook table and slash commands as `ctx init` writes. Checked in, and a test keeps them equal to this output, but for
// hooks/hooks.json, which `pnpm build` writes (./built-wiring.ts): adding a hook event changes no checked-in file.
import { renderForkDetectCommand } from "./init/fork-detect.ts";
import { buildHooksObject, type CtxCommand } from "./init/hooks-spec.ts";
import { serializeJson } from "./init/json-text.ts";
import { renderSummariesCommand, SUMMARIES_COMMAND_NAMES } from "./init/summaries-commands.ts";

export interface PluginMeta {
  name: string;
  version: string;
  description: string;
  license: string;
  author: string;
}

// Claude Code substitutes ${CLAUDE_PLUGIN_ROOT} in MCP and exec-form hook arguments; it changes on every update.
// biome-ignore lint/suspicious/noTemplateCurlyInString: a literal placeholder for Claude Code, not a template.
export const PLUGIN_ENTRY = "${CLAUDE_PLUGIN_ROOT}/dist/ctx.js";
export const PLUGIN_COMMAND: CtxCommand = { command: "node", prefixArgs: [PLUGIN_ENTRY] };

export function renderPluginManifest(meta: PluginMeta): string {
  return serializeJson({
    name: "ctx",
    version: meta.version,
    description: meta.description,
    author: { name: meta.author },
    license: meta.license,
    keywords: ["context", "compaction", "memory", "sessions", "fork"],
    mcpServers: { ctx: { command: PLUGIN_COMMAND.command, args: [...PLUGIN_COMMAND.prefixArgs, "serve"] } },
    // No `"hooks": "./hooks/hooks.json"`: Claude Code loads that standard file by itself. Naming it too made
    // 2026 releases refuse the plugin's hooks ("Duplicate hooks file detected"); 2.1.330 only logs it.
  });
}

export function renderPluginHooks(): string {
  return serializeJson({
    description:
      "ctx: save context before compaction, restore it after, and keep an eye on the context window. " +
      "Timeouts are in seconds.",
    hooks: buildHooksObject(PLUGIN_COMMAND),
  });
}

export function renderMarketplace(meta: PluginMeta): string {
  return serializeJson({
    name: "ctx",
    description: "The ctx plugin for Claude Code, installed from npm.",
    owner: { name: meta.author },
    plugins: [
      {
        name: "ctx",
        description: meta.description,
        source: { source: "npm", package: meta.name },
      },
    ],
  });
}

/** Repository-relative path -> exact content of every checked-in plugin file. */
export function renderPluginFiles(meta: PluginMeta): Record<string, string> {
  return {
    ".claude-plugin/plugin.json": renderPluginManifest(meta),
    ".claude-plugin/marketplace.json": renderMarketplace(meta),
    "commands/fork-detect.md": renderForkDetectCommand(),
    ...Object.fromEntries(SUMMARIES_COMMAND_NAMES.map((name) => [`commands/${name}.md`, renderSummariesCommand(name)])),
  };
}
