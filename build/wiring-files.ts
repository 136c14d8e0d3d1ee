// `pnpm build`'s last step: the Claude Code wiring derived from the hook-event table (src/core/hooks/events.ts),
// written rather than checked in: the plugin's hooks/hooks.json and this repository's own .claude/settings.json.
// Both run dist/ctx.js, which only a build makes (a checkout without one has neither), and adding an event changes
// no file but its row, its handler and the handler's test. tests/build/wiring-files.test.ts checks what was written.
import { writeBuiltWiringFiles } from "../src/setup/built-wiring-write.ts";

const written = await writeBuiltWiringFiles(process.cwd());
process.stderr.write(`wiring: ${written.join(", ")}\n`);
