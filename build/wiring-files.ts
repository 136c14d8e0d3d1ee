// `pnpm build`'s wiring step: the Claude Code wiring derived from the hook-event table (src/core/hooks/events.ts),
// written rather than checked in: this repository's own .claude/settings.json (the plugin's hooks: plugin-folder.ts).
// It runs dist/ctx.js, which only a build makes (a checkout without one has none), and adding an event changes
// no file but its row, its handler and the handler's test. tests/build/wiring-files.test.ts checks what was written.
import { writeBuiltWiringFiles } from "../src/setup/built-wiring-write.ts";

const written = await writeBuiltWiringFiles(process.cwd());
process.stderr.write(`wiring: ${written.join(", ")}\n`);
