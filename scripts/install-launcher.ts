// The writing half of scripts/install-launcher.sh, run with the Node the toolchain provides (src/setup/launcher.ts).
// Usage: node scripts/install-launcher.ts <dir> <node> <entry>
import { describeError, isCtxError } from "../src/errors.ts";
import { installLauncher } from "../src/setup/launcher.ts";
import { sanitizeLogLine } from "../src/terminal-text.ts";

const [dir = "", nodeBin = "", entry = ""] = process.argv.slice(2);
try {
  const result = await installLauncher({ dir, nodeBin, entry, pathVariable: process.env.PATH ?? "" });
  process.stdout.write(`install-launcher: wrote ${sanitizeLogLine(result.path)} (runs ${sanitizeLogLine(entry)})\n`);
  if (!result.onPath) {
    process.stdout.write(
      `install-launcher: that folder is not on PATH; add this to your shell profile: ${result.pathLine}\n`,
    );
  }
} catch (error) {
  const hint = isCtxError(error) && error.hint !== undefined ? `\nhint: ${error.hint}` : "";
  process.stderr.write(`install-launcher: ${sanitizeLogLine(describeError(error))}${hint}\n`);
  process.exitCode = 1;
}
