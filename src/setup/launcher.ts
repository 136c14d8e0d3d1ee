// The launcher scripts/install-launcher.sh puts on PATH: `ctx` as a three-line sh script that runs a clone's build
// with the Node that builds it, for a machine whose own Node is too old to run ctx (#24). It is written as any file
// at a path the person names is (store/files/user-file.ts), executable, with its words shell-quoted
// (core/shell/quote.ts) and its comment a single line (terminal-text.ts); only a launcher written earlier is replaced,
// never another program.
import { readFile } from "node:fs/promises";
import { delimiter, join, resolve } from "node:path";
import { LAUNCHER_MARKER } from "../core/setup/init/command-choice.ts";
import { quoteShellWord } from "../core/shell/quote.ts";
import { CtxError, isCtxError } from "../errors.ts";
import { requireUserFolder, userFileTarget, writeUserNamedFile } from "../store/files/user-file.ts";
import { sanitizeLogLine } from "../terminal-text.ts";

export function renderLauncher(nodeBin: string, entry: string): string {
  return [
    "#!/bin/sh",
    // A comment ends at a newline, and a path may hold one: the words are escaped as a log line's are (`\n`), so the
    // line stays one comment whatever the clone's folder is called (issue #31).
    sanitizeLogLine(`${LAUNCHER_MARKER}: runs ${entry} with ${nodeBin}`),
    `exec ${quoteShellWord(nodeBin)} ${quoteShellWord(entry)} "$@"`,
    "",
  ].join("\n");
}

export interface LauncherResult {
  path: string;
  /** The folder is on PATH; otherwise `pathLine` puts it there. */
  onPath: boolean;
  pathLine: string;
}

/** Writes `<dir>/ctx` (the folder must exist); CONFLICT when another program is there, UNSAFE_PATH for a link. */
export async function installLauncher(input: {
  dir: string;
  nodeBin: string;
  entry: string;
  pathVariable: string;
}): Promise<LauncherResult> {
  await requireUserFolder(input.dir);
  const path = join(resolve(input.dir), "ctx");
  const { existing } = await userFileTarget(path).catch((error: unknown) => {
    // A link, a folder, a FIFO…: said as the shared rule says it, with this command's way out (it has no --force).
    if (isCtxError(error) && error.code === "UNSAFE_PATH") {
      throw new CtxError("UNSAFE_PATH", error.message.replace(/; ctx does not write through it$/, "; left as it is"), {
        hint: "remove it, or use --dir to write the launcher elsewhere; nothing was written",
      });
    }
    throw error;
  });
  if (existing !== null && !(await readFile(path, "utf8")).includes(LAUNCHER_MARKER)) {
    throw new CtxError("CONFLICT", `${path} is another program; left as it is`, {
      hint: "use --dir to write the launcher elsewhere",
    });
  }
  await writeUserNamedFile(path, renderLauncher(input.nodeBin, input.entry), { newFileMode: 0o755 });
  const dir = resolve(input.dir);
  return {
    path,
    onPath: input.pathVariable.split(delimiter).some((entry) => entry !== "" && resolve(entry) === dir),
    pathLine: `export PATH=${quoteShellWord(dir)}:"$PATH"`,
  };
}
