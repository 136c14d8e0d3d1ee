// What the `ctx team` subcommands share: the config as the current folder sees it, the connection settings, the
// server a command names or the joined one, the project folder, and a shared project's name in one line.
import { loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { parseTeamUrl } from "../../core/team/server-url.ts";
import { CtxError } from "../../errors.ts";
import type { CliContext } from "../command-io.ts";

export interface JsonFlag {
  json?: boolean;
}

/** The helpers every `ctx team` subcommand is given, bound to this run's folder and environment. */
export function teamCommandKit(ctx: CliContext) {
  const config = () => loadConfig({ projectRoot: findProjectRoot(ctx.cwd, ctx.env), env: ctx.env });
  const connectOptions = () => {
    const { connectTimeoutMs, lockTimeoutMs, statementTimeoutMs } = config().team;
    return { connectTimeoutMs, lockTimeoutMs, statementTimeoutMs, env: ctx.env };
  };
  const serverFrom = (given: string | undefined): string => {
    const url = given ?? config().team.url;
    if (url === "") {
      throw new CtxError("USAGE", "no team server given", {
        hint: "pass its URL, or join one first with `ctx team join <url> --team <name>`",
      });
    }
    parseTeamUrl(url);
    return url;
  };
  const service = () => import("../../team/service.ts");
  const joinedServer = () => {
    const settings = config().team;
    if (settings.url === "" || settings.name === "") {
      throw new CtxError("USAGE", "not in a team", { hint: "join one first: `ctx team join <url> --team <name>`" });
    }
    return { url: settings.url, team: settings.name, options: connectOptions() };
  };
  const projectFolder = () => findProjectRoot(ctx.cwd, ctx.env);
  return { config, connectOptions, serverFrom, service, joinedServer, projectFolder };
}

export type TeamCommandKit = ReturnType<typeof teamCommandKit>;
