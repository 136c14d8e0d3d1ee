// Whether a program is on PATH, found the way a shell would find it (an executable regular file in one of PATH's
// folders): the picker's clipboard tools and `ctx show`'s default pager are offered only when they are there.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "").split(delimiter).some((dir) => {
    if (dir === "") return false;
    const path = join(dir, command);
    try {
      if (!statSync(path).isFile()) return false;
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
