// `ctx team status [--json]`: the team this machine joined, as team/status.ts assembles it, printed; an unreachable
// server exits 1.
import type { Command } from "commander";
import { projectName } from "../../core/team/project-identity.ts";
import { readTeamStatus, type TeamSharing, type TeamStatus, TeamStatusSchema } from "../../team/status.ts";
import { writableSchemaWarnings } from "../../team/writable-schemas.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson, formatRows } from "../output.ts";
import type { JsonFlag, TeamCommandKit } from "./team-shared.ts";

export function registerTeamStatusCommand(team: Command, ctx: CliContext, kit: TeamCommandKit): void {
  const { config } = kit;
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
