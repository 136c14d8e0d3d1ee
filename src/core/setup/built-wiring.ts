// The Claude Code wiring derived from the hook-event table (core/hooks/events.ts) that `pnpm build` writes instead of
// checking it in: this repository's own .claude/settings.json (the plugin's hooks/hooks.json is written with the rest
// of its folder: ./plugin-files.ts). It runs dist/ctx.js, which only a build makes, so a checkout without a build has
// none; and adding a hook event changes no file but its row in the table, its handler and the handler's test
// (build/wiring-files.ts writes it).
import { renderSelfSettings } from "./self-wiring.ts";

/** Repository-relative path -> exact content. */
export function renderBuiltWiringFiles(): Record<string, string> {
  return { ".claude/settings.json": renderSelfSettings() };
}
