// The Claude Code plugin and its marketplace, generated from the same hook table and slash commands as `ctx init`
// writes. The repository root is the marketplace: its .claude-plugin/marketplace.json (checked in; a test keeps it equal
// to this output) lists one plugin, the folder `plugin/` that `pnpm build` writes (src/setup/plugin-folder.ts): the
// built program with its runtime packages (Claude Code runs the folder in place, and keeps a copy in its cache, so it
// has to stand alone), and the manifest, hooks/hooks.json and commands rendered here. The root is not a plugin itself, so the
// top-level CLAUDE.md is a contributor's, and `claude plugin validate --strict` passes on both folders.
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

/**
 * The plugin's commands run `node` on its entry. The build names the Node that built it (an absolute path): the
 * plugin is built for this machine from its clone, and on a machine whose own `node` is older than ctx needs (the
 * quick start fetches a newer one without putting it on PATH) a bare `node` would fail every hook.
 */
export function pluginCommand(node = "node"): CtxCommand {
  return { command: node, prefixArgs: [PLUGIN_ENTRY] };
}

export function renderPluginManifest(meta: PluginMeta, node = "node"): string {
  const command = pluginCommand(node);
  return serializeJson({
    name: "ctx",
    version: meta.version,
    description: meta.description,
    author: { name: meta.author },
    license: meta.license,
    keywords: ["context", "compaction", "memory", "sessions", "fork"],
    mcpServers: { ctx: { command: command.command, args: [...command.prefixArgs, "serve"] } },
    // No `"hooks": "./hooks/hooks.json"`: Claude Code loads that standard file by itself. Naming it too made
    // 2026 releases refuse the plugin's hooks ("Duplicate hooks file detected"); 2.1.330 only logs it.
  });
}

export function renderPluginHooks(node = "node"): string {
  return serializeJson({
    description:
      "ctx: save context before compaction, restore it after, and keep an eye on the context window. " +
      "Timeouts are in seconds.",
    hooks: buildHooksObject(pluginCommand(node)),
  });
}

/** The plugin's folder in the repository, which `pnpm build` writes (git ignores it). */
export const PLUGIN_FOLDER = "plugin";

export function renderMarketplace(meta: PluginMeta): string {
  return serializeJson({
    name: "ctx",
    description: "The ctx plugin for Claude Code, from a built clone of its repository (pnpm build writes plugin/).",
    owner: { name: meta.author },
    // A local source: `claude plugin install` copies the folder, with nothing to fetch.
    plugins: [{ name: "ctx", description: meta.description, source: `./${PLUGIN_FOLDER}` }],
  });
}

/** Repository-relative path -> exact content of the checked-in marketplace file. */
export function renderMarketplaceFiles(meta: PluginMeta): Record<string, string> {
  return { ".claude-plugin/marketplace.json": renderMarketplace(meta) };
}

/**
 * Repository-relative path -> exact content of the plugin's own files, which the build writes into its folder, with
 * `node` the Node its commands run (see pluginCommand).
 */
export function renderPluginFiles(meta: PluginMeta, node = "node"): Record<string, string> {
  const files: Record<string, string> = {
    ".claude-plugin/plugin.json": renderPluginManifest(meta, node),
    "hooks/hooks.json": renderPluginHooks(node),
    "commands/fork-detect.md": renderForkDetectCommand(),
    ...Object.fromEntries(SUMMARIES_COMMAND_NAMES.map((name) => [`commands/${name}.md`, renderSummariesCommand(name)])),
  };
  return Object.fromEntries(Object.entries(files).map(([path, content]) => [`${PLUGIN_FOLDER}/${path}`, content]));
}
