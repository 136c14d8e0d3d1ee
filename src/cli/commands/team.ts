// `ctx team init|migrate|add-member|join|status`: the team session library on PostgreSQL (docs/team.md). The
// administrator creates ctx's schema and adds members; each member joins with their own role, which stores the
// server and team in the member's OWN config (~/.ctx/config.json; `team.url` is secret, so a repository's file can
// never set it). The server is always shown without its password. node-postgres is loaded only by these commands.
import type { Command } from "commander";
import { globalConfigPath, loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { parseTeamUrl, passwordsInUrl } from "../../core/team/server-url.ts";
import { CtxError } from "../../errors.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { setConfigValue } from "../../store/config/config-file.ts";
import type { TeamMembership } from "../../team/inspect.ts";
import type { TeamMemberResult } from "../../team/members.ts";
import type { TeamMigrateResult } from "../../team/migrate.ts";
import { readTeamStatus, type TeamSharing, type TeamStatus, TeamStatusSchema } from "../../team/status.ts";
import { writableSchemaWarnings } from "../../team/writable-schemas.ts";
import { sanitizeLogLine } from "../../terminal-text.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson, formatRows } from "../output.ts";

interface JsonFlag {
  json?: boolean;
}

export function registerTeamCommand(program: Command, ctx: CliContext): void {
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

  const team = program.command("team").description(COMMANDS.team.description);

  team
    .command("init")
    .description("create ctx's schema on the server (administrator; safe to run again)")
    .argument("<url>", "postgresql://<admin role>@<host>:<port>/<database>?sslmode=verify-full")
    .option("--json", "print JSON for scripts")
    .action(async (url: string, flags: JsonFlag) => {
      const { migrateTeam } = await service();
      printMigration(await migrateTeam(serverFrom(url), connectOptions()), flags);
    });

  team
    .command("migrate")
    .description("bring ctx's schema on the server up to this ctx's version (administrator)")
    .argument("[url]", "the server (default: team.url)")
    .option("--json", "print JSON for scripts")
    .action(async (url: string | undefined, flags: JsonFlag) => {
      const { migrateTeam } = await service();
      printMigration(await migrateTeam(serverFrom(url), connectOptions()), flags);
    });

  team
    .command("add-member")
    .description("make an existing PostgreSQL role a member of a team, creating the team if needed (administrator)")
    .argument("<role>", "the member's PostgreSQL role (create it first: CREATE ROLE … LOGIN PASSWORD …)")
    .requiredOption("--team <name>", "the team")
    .option("--handle <handle>", "the name teammates see (default: the role)")
    .option("--url <url>", "the server, as the administrator (default: team.url)")
    .option("--json", "print JSON for scripts")
    .action(async (role: string, flags: { team: string; handle?: string; url?: string } & JsonFlag) => {
      const { addMember } = await service();
      const result = await addMember(serverFrom(flags.url), connectOptions(), {
        role,
        team: flags.team,
        ...(flags.handle === undefined ? {} : { handle: flags.handle }),
      });
      if (flags.json) return ctx.out(formatJson(result));
      ctx.out(formatMember(result));
    });

  team
    .command("join")
    .description("join a team as this machine's member: checks the server, then stores it in ~/.ctx/config.json")
    .argument("<url>", "postgresql://<your role>@<host>:<port>/<database>?sslmode=verify-full")
    .requiredOption("--team <name>", "the team the administrator added you to")
    .option("--json", "print JSON for scripts")
    .action(async (url: string, flags: { team: string } & JsonFlag) => {
      const { joinCheck } = await service();
      const membership = await joinCheck(serverFrom(url), connectOptions(), flags.team);
      // Only the user's own file: a project's .ctx/config.json is never where a member's server is kept.
      const target = { path: globalConfigPath(ctx.env) };
      await setConfigValue(target, "team.url", url.trim());
      await setConfigValue(target, "team.name", flags.team);
      if (flags.json) return ctx.out(formatJson({ configFile: target.path, membership }));
      ctx.out(formatJoin(membership, target.path, passwordsInUrl(url).length > 0));
    });

  team
    .command("status")
    .description("the team this machine joined: server (no password), team, member, schema version, row counts")
    .option("--json", "print JSON for scripts")
    .action(async (flags: JsonFlag) => {
      const status = await readTeamStatus(config().team, ctx.env);
      if (status.joined && status.reachable !== true) ctx.setExitCode(1);
      for (const line of writableSchemaWarnings(status.writableSchemas)) ctx.err(`${line}\n`);
      if (flags.json) return ctx.out(formatJson(TeamStatusSchema.parse(status)));
      ctx.out(formatStatus(status));
    });

  const joinedServer = () => {
    const settings = config().team;
    if (settings.url === "" || settings.name === "") {
      throw new CtxError("USAGE", "not in a team", { hint: "join one first: `ctx team join <url> --team <name>`" });
    }
    return { url: settings.url, team: settings.name, options: connectOptions() };
  };
  const projectFolder = () => findProjectRoot(ctx.cwd, ctx.env);

  team
    .command("share")
    .description("share this project's sessions (redacted) with the team: your decision, kept in ctx's own state")
    .option("--json", "print JSON for scripts")
    .action(async (flags: JsonFlag) => {
      const server = joinedServer();
      const { shareProject } = await import("../../team/share.ts");
      const result = await shareProject({
        env: ctx.env,
        folder: projectFolder(),
        dbPath: resolveIndexPath(ctx.env),
        server,
      });
      if (result.queued > 0 && ctx.cliPath) {
        const { startBackgroundPusher } = await import("../../team/pusher.ts");
        startBackgroundPusher({ env: ctx.env, cliPath: ctx.cliPath });
      }
      if (flags.json) return ctx.out(formatJson(result));
      const name = projectName(result.project);
      const lines = [
        `${result.added ? "sharing" : "already sharing"} ${name} with team ${server.team} (from ${result.root})`,
        `${result.queued} indexed session${result.queued === 1 ? "" : "s"} queued; new ones are queued as they are indexed and pushed in the background`,
      ];
      if (result.serverError !== null) {
        lines.push(
          `note: the server could not be reached (${result.serverError}); the project is added at the first push`,
        );
      }
      lines.push("stop with `ctx team unshare`; remove what was pushed with `ctx team forget --mine --project`");
      ctx.out(`${lines.join("\n")}\n`);
    });

  team
    .command("unshare")
    .description("stop sharing this project: nothing more is queued or pushed (what the server has stays until forget)")
    .option("--json", "print JSON for scripts")
    .action(async (flags: JsonFlag) => {
      const { unshareProject } = await import("../../team/share.ts");
      const result = await unshareProject({ env: ctx.env, folder: projectFolder(), dbPath: resolveIndexPath(ctx.env) });
      if (flags.json) return ctx.out(formatJson(result));
      if (result.project === null) return ctx.out(`${result.root} was not shared\n`);
      ctx.out(
        `stopped sharing ${projectName(result.project)} (from ${result.root}); ${result.dropped} queued session${result.dropped === 1 ? "" : "s"} dropped\n` +
          "what the server has stays: `ctx team forget --mine --project` removes it\n",
      );
    });

  team
    .command("push")
    .description("send what is queued for the team now (it is also sent in the background after each index)")
    .option("--json", "print JSON for scripts")
    .option("--background", "run as the background pusher: leave at once if another is running, print nothing")
    .option("--retry-set-aside", "try the sessions set aside again (the server refused them: `ctx team status`)")
    .action(async (flags: JsonFlag & { background?: boolean; retrySetAside?: boolean }) => {
      const server = joinedServer();
      const { drainOutbox } = await import("../../team/pusher.ts");
      const { readSharedProjects } = await import("../../store/team/team-state.ts");
      const settings = config();
      const quiet = flags.background === true || flags.json === true;
      const result = await drainOutbox(
        {
          url: server.url,
          team: server.team,
          connectTimeoutMs: server.options.connectTimeoutMs,
          lockTimeoutMs: server.options.lockTimeoutMs,
          statementTimeoutMs: server.options.statementTimeoutMs,
          env: ctx.env,
          dbPath: resolveIndexPath(ctx.env),
          shared: await readSharedProjects(ctx.env),
          maxTranscriptMegabytes: settings.team.maxTranscriptMegabytes,
          allowlist: settings.redaction.allowlist,
          retrySetAside: flags.retrySetAside === true,
          onProgress: (p) => {
            if (!quiet && p.pendingSessions > p.sessions + p.setAside) {
              ctx.err(`pushing: ${p.sessions} sessions, ${p.chunks} chunks sent; ${p.pendingSessions} were queued\n`);
            }
          },
        },
        // A manual push waits for a running pusher (it ends when the outbox is empty) rather than doing nothing.
        { waitMs: flags.background === true ? 0 : 120_000 },
      );
      if (flags.background === true) return;
      if (result.outcome === "failed") ctx.setExitCode(1);
      if (flags.json) return ctx.out(formatJson(result));
      if (result.outcome === "failed")
        return ctx.err(
          `push failed: ${sanitizeLogLine(result.error)}\nthe outbox keeps everything for the next push\n`,
        );
      if (result.outcome === "busy") return ctx.out("another pusher is running\n");
      const s = result.summary;
      if (s.setAside > 0) {
        ctx.err(
          `${s.setAside} session${s.setAside === 1 ? "" : "s"} set aside: the server refused ${s.setAside === 1 ? "it" : "them"} (\`ctx team status\` says why); the rest went on\n`,
        );
      }
      ctx.out(
        s.sessions === 0 && s.dropped === 0
          ? "nothing to push\n"
          : `pushed ${s.sessions} session${s.sessions === 1 ? "" : "s"} (${s.chunks} chunks, ${s.messages} messages, ${s.transcripts} transcripts${s.notForkable > 0 ? `, ${s.notForkable} over team.maxTranscriptMegabytes: not forkable` : ""}) in ${s.durationMs} ms` +
              `${s.othersSessions > 0 ? `; ${s.othersSessions} teammate session${s.othersSessions === 1 ? "" : "s"} fetched by ctx fork left to their author` : ""}\n`,
      );
    });

  team
    .command("forget")
    .description("delete your own sessions from the team server: one by id, or --mine [--project]")
    .argument("[session-id]", "the session to delete")
    .option("--mine", "all of your sessions")
    .option("--project", "with --mine: only this project's")
    .option("--json", "print JSON for scripts")
    .action(async (id: string | undefined, flags: JsonFlag & { mine?: boolean; project?: boolean }) => {
      if ((id === undefined) === (flags.mine !== true) || (flags.project === true && flags.mine !== true)) {
        throw new CtxError("USAGE", "give one session id, or --mine (optionally with --project)", {
          hint: "ctx team forget <session-id> | ctx team forget --mine [--project]",
        });
      }
      const server = joinedServer();
      const { forgetSessions } = await import("../../team/share.ts");
      const { checkoutIdentity } = await import("../../team/checkout.ts");
      const project = flags.project === true ? await checkoutIdentity(projectFolder()) : undefined;
      const result = await forgetSessions({
        server,
        dbPath: resolveIndexPath(ctx.env),
        ...(id === undefined ? {} : { ids: [id] }),
        ...(project === undefined ? {} : { project }),
      });
      if (id !== undefined && result.deleted.length === 0) {
        throw new CtxError(
          "NOT_FOUND",
          `the server has no session ${JSON.stringify(id)} of yours in team ${server.team}`,
          {
            hint: "`ctx team forget` deletes only your own sessions",
          },
        );
      }
      if (flags.json) return ctx.out(formatJson(result));
      ctx.out(
        `deleted ${result.deleted.length} session${result.deleted.length === 1 ? "" : "s"} from team ${server.team} (with their chunks and transcripts)\n`,
      );
    });

  const printMigration = (result: TeamMigrateResult, flags: JsonFlag) => {
    for (const line of writableSchemaWarnings(result.writableSchemas)) ctx.err(`${line}\n`);
    if (flags.json) return ctx.out(formatJson(result));
    const what =
      result.applied.length === 0
        ? `ctx's schema is up to date (version ${result.to})`
        : `applied ${result.applied.map((m) => `${m.version} (${m.name})`).join(", ")}: schema version ${result.from} -> ${result.to}`;
    ctx.out(`${result.server}: ${what}\n`);
  };
}

function projectName(project: { remoteUrl: string; repoPath: string }): string {
  return project.repoPath === "" ? project.remoteUrl : `${project.remoteUrl} (${project.repoPath})`;
}

function formatMember(result: TeamMemberResult): string {
  const lines = [
    `${result.added ? "added" : "updated"} ${result.role} to team ${result.team}${result.teamCreated ? " (new team)" : ""} as ${result.handle}`,
    `server: ${result.server}`,
  ];
  if (result.bypassesRowSecurity) {
    lines.push(
      `warning: ${result.role} is a superuser or has BYPASSRLS: it sees every team's rows; members should be plain login roles`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function formatJoin(membership: TeamMembership, configFile: string, passwordInUrl: boolean): string {
  const rows: [string, string][] = [
    ["server", membership.server],
    ["team", membership.team],
    ["member", `${membership.role} (handle ${membership.handle})`],
    ["schema", `version ${membership.schemaVersion} (this ctx: ${membership.expectedSchemaVersion})`],
    ["reads", membership.rights.read.join(", ")],
    ["writes", `${membership.rights.write.join(", ")} (its own rows only)`],
    ["saved in", configFile],
  ];
  const notes: string[] = [];
  if (passwordInUrl) {
    notes.push(
      `note: the URL's password is kept in ${configFile} (mode 0600); ~/.pgpass or PGPASSWORD keep it out of ctx's config`,
    );
  }
  if (membership.bypassesRowSecurity) {
    notes.push(
      "warning: this role is a superuser or has BYPASSRLS: it sees every team's rows; join with a member role",
    );
  }
  return `joined team ${membership.team}\n${formatRows(rows)}${notes.map((n) => `${n}\n`).join("")}`;
}

function sharingRows(sharing: TeamSharing): [string, string][] {
  const rows: [string, string][] = [];
  rows.push([
    "shared",
    sharing.projects.length === 0
      ? "nothing (`ctx team share` in a project)"
      : sharing.projects.map(projectName).join(", "),
  ]);
  const o = sharing.outbox;
  rows.push([
    "outbox",
    o.items === 0
      ? "empty"
      : `${o.sessions} session${o.sessions === 1 ? "" : "s"} queued since ${new Date(o.oldestAt ?? 0).toISOString()}`,
  ]);
  rows.push(["last push", sharing.lastPushAt === null ? "never" : new Date(sharing.lastPushAt).toISOString()]);
  if (sharing.lastError !== null) rows.push(["last error", sharing.lastError]);
  // One line per session set aside; `ctx team push --retry-set-aside` tries them again (docs/team.md).
  for (const item of sharing.setAside) rows.push(["set aside", `${item.sessionId}: ${item.reason}`]);
  if (sharing.setAside.length > 0) {
    rows.push(["", "tried again when they change, or now with `ctx team push --retry-set-aside`"]);
  }
  return rows;
}

function formatStatus(status: TeamStatus): string {
  if (!status.joined) return "not in a team: `ctx team join <url> --team <name>` (docs/team.md)\n";
  const rows: [string, string][] = [
    ["server", status.server ?? ""],
    ["team", status.team ?? ""],
  ];
  if (status.reachable !== true) {
    rows.push(["reachable", `no: ${status.error ?? "unknown"}`]);
    rows.push(...sharingRows(status.sharing));
    return formatRows(rows);
  }
  rows.push(["member", `${status.role ?? ""} (handle ${status.handle ?? "-"})`]);
  rows.push(["schema", `version ${status.schemaVersion ?? "-"} (this ctx: ${status.expectedSchemaVersion})`]);
  const c = status.counts;
  if (c !== null) {
    rows.push(["members", String(c.members)]);
    rows.push(["projects", String(c.projects)]);
    rows.push(["sessions", `${c.sessions} (${c.mySessions} yours)`]);
    rows.push(["chunks", String(c.chunks)]);
    rows.push(["transcripts", String(c.transcripts)]);
  }
  rows.push(...sharingRows(status.sharing));
  return formatRows(rows);
}
