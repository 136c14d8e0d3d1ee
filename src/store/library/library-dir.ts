// Where ctx keeps the person's library (docs/forks.md, docs/state.md): `<ctx home>/library/`, never in a repository.
import { join } from "node:path";
import { ctxHome } from "../../config/paths.ts";

export function libraryDir(env: NodeJS.ProcessEnv): string {
  return join(ctxHome(env), "library");
}
