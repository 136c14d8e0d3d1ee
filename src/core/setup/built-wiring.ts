// The Claude Code wiring derived from the hook-event table (core/hooks/events.ts) that `pnpm build` writes instead of
// checking it in: the plugin's hooks/hooks.json and this repository's own .claude/settings.json. Both run dist/ctx.js,
// which only a build makes, so a checkout without a build has neither; and adding a hook event changes no file but
// its row in the table, its handler and the handler's test (build/wiring-files.ts writes them).
import { renderPluginHooks } from "./plugin-files.ts";
import { renderSelfSettings } from "./self-wiring.ts";

/** Repository-relative path -> exact content. */
export function renderBuiltWiringFiles(): Record<string, string> {
  return { "hooks/hooks.json": renderPluginHooks(), ".claude/settings.json": renderSelfSettings() };
}
