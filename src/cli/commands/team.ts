// `ctx team init|migrate|add-member|join|status`: the team session library on PostgreSQL (docs/team.md). The
// administrator creates ctx's schema and adds members; each member joins with their own role, which stores the
// server and team in the member's OWN config (~/.ctx/config.json; `team.url` is secret, so a repository's file can
// never set it). The server is always shown without its password. node-postgres is loaded only by these commands.
import type { Command } from "commander";
import * as z from "zod/mini";
import { globalConfigPath, loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { TEAM_SCHEMA_VERSION } from "../../core/team/migrations.ts";
import { describeTeamUrl, parseTeamUrl, passwordsInUrl } from "../../core/team/server-url.ts";
import { CtxError, describeError } from "../../errors.ts";
import { setConfigValue } from "../../store/config/config-file.ts";
import type { TeamMembership } from "../../team/inspect.ts";
import type { TeamMemberResult } from "../../team/members.ts";
import type { TeamMigrateResult } from "../../team/migrate.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson, formatRows } from "../output.ts";

export const TeamStatusSchema = z.object({
  /** Whether this machine has joined a team (team.url and team.name set). */
  joined: z.boolean(),
  server: z.nullable(z.string()),
  team: z.nullable(z.string()),
  reachable: z.nullable(z.boolean()),
  /** Why the server could not be used, password removed. */
  error: z.nullable(z.string()),
  role: z.nullable(z.string()),
  handle: z.nullable(z.string()),
  schemaVersion: z.nullable(z.number()),
  expectedSchemaVersion: z.number(),
  counts: z.nullable(
    z.object({
      members: z.number(),
      projects: z.number(),
      sessions: z.number(),
      chunks: z.number(),
      transcripts: z.number(),
      mySessions: z.number(),
    }),
  ),
});
export type TeamStatus = z.infer<typeof TeamStatusSchema>;

interface JsonFlag {
  json?: boolean;
}

export function registerTeamCommand(program: Command, ctx: CliContext): void {
  const config = () => loadConfig({ projectRoot: findProjectRoot(ctx.cwd, ctx.env), env: ctx.env });
  const connectOptions = () => ({ connectTimeoutMs: config().team.connectTimeoutMs, env: ctx.env });
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

  const team = program
    .command("team")
    .description("share sessions with a team through a PostgreSQL server: init, migrate, add-member, join, status");

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
      const settings = config().team;
      let status: TeamStatus;
      if (settings.url === "" || settings.name === "") {
        status = emptyStatus(settings.url === "" ? null : describeTeamUrl(settings.url), settings.name || null);
      } else {
        const { teamStatus } = await service();
        status = await teamStatus(settings.url, connectOptions(), settings.name).catch((error: unknown) => ({
          ...emptyStatus(describeTeamUrl(settings.url), settings.name),
          joined: true,
          reachable: false,
          error: describeError(error),
        }));
      }
      if (status.joined && status.reachable !== true) ctx.setExitCode(1);
      if (flags.json) return ctx.out(formatJson(TeamStatusSchema.parse(status)));
      ctx.out(formatStatus(status));
    });

  const printMigration = (result: TeamMigrateResult, flags: JsonFlag) => {
    if (flags.json) return ctx.out(formatJson(result));
    const what =
      result.applied.length === 0
        ? `ctx's schema is up to date (version ${result.to})`
        : `applied ${result.applied.map((m) => `${m.version} (${m.name})`).join(", ")}: schema version ${result.from} -> ${result.to}`;
    ctx.out(`${result.server}: ${what}\n`);
  };
}

function emptyStatus(server: string | null, team: string | null): TeamStatus {
  return {
    joined: false,
    server,
    team,
    reachable: null,
    error: null,
    role: null,
    handle: null,
    schemaVersion: null,
    expectedSchemaVersion: TEAM_SCHEMA_VERSION,
    counts: null,
  };
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

function formatStatus(status: TeamStatus): string {
  if (!status.joined) return "not in a team: `ctx team join <url> --team <name>` (docs/team.md)\n";
  const rows: [string, string][] = [
    ["server", status.server ?? ""],
    ["team", status.team ?? ""],
  ];
  if (status.reachable !== true) {
    rows.push(["reachable", `no: ${status.error ?? "unknown"}`]);
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
  return formatRows(rows);
}
