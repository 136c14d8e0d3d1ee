// How this ctx was installed, so `ctx doctor` and `ctx init` name a fix that works for it: a checkout (pack it and
// install the tarball), an installed package whose bin folder is not on PATH, a Claude Code plugin, or an npx copy.
// claude-ctx is not on the npm registry yet, so no fix may say `npm install -g claude-ctx` except for a copy that
// npx itself fetched from a registry.
import { quoteShellWord } from "../shell/quote.ts";

export type InstallKind = "checkout" | "package" | "plugin" | "npx" | "unknown";

export interface InstallFacts {
  /** This program's dist/ctx.js. */
  entry: string;
  /** The folder of its package.json, when found. */
  packageRoot: string | null;
  /** The package root is a git checkout with its sources (src/, .git). */
  checkout: boolean;
  version: string;
  /** CLAUDE_PLUGIN_ROOT when Claude Code started ctx as a plugin. */
  pluginRoot?: string | undefined;
}

export function detectInstallKind(facts: InstallFacts): InstallKind {
  if (/[\\/](_npx|dlx)[\\/]|[\\/]dlx-[^\\/]+[\\/]/.test(facts.entry)) return "npx";
  if (facts.checkout) return "checkout";
  const inPluginRoot =
    facts.pluginRoot !== undefined && facts.pluginRoot !== "" && facts.entry.startsWith(facts.pluginRoot);
  if (inPluginRoot || /[\\/]\.claude[\\/]plugins[\\/]/.test(facts.entry)) return "plugin";
  if (/[\\/]node_modules[\\/]claude-ctx[\\/]/.test(facts.entry)) return "package";
  return "unknown";
}

/** The command that puts this ctx on PATH as `ctx`, for the install method in use. */
export function onPathFix(facts: InstallFacts): string {
  const link = `mkdir -p ~/.local/bin && ln -sf ${quoteShellWord(facts.entry)} ~/.local/bin/ctx   (with ~/.local/bin on PATH)`;
  switch (detectInstallKind(facts)) {
    case "checkout":
      return `from the checkout: cd ${quoteShellWord(facts.packageRoot ?? ".")} && npm pack && npm install -g ./claude-ctx-${facts.version}.tgz`;
    case "package":
      return 'npm\'s global bin folder is not on PATH: export PATH="$(npm prefix -g)/bin:$PATH" (in your shell profile)';
    case "plugin":
      return `the plugin runs ctx by itself; for the shell: ${link}`;
    case "npx":
      return "install it for good: npm install -g claude-ctx (or from a checkout: npm pack, then npm install -g the .tgz)";
    case "unknown":
      return link;
  }
}
