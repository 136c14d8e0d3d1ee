// `pnpm build`'s last step: the Claude Code plugin folder, plugin/ (src/setup/plugin-folder.ts), from this build.
// tests/build/plugin-folder.test.ts checks what it holds; tests/e2e/claude-code.test.ts installs it in Claude Code.
import { pnpmCommand, writePluginFolder } from "../src/setup/plugin-folder.ts";

const started = performance.now();
// The plugin runs on the Node that builds it (src/core/setup/plugin-files.ts, pluginCommand).
const written = await writePluginFolder(process.cwd(), pnpmCommand(process.env, process.execPath), process.execPath);
process.stderr.write(
  `plugin: plugin/ (${written.length} files rendered, ${Math.round(performance.now() - started)} ms)\n`,
);
