// The index page (docs/ui.md "Index and team"): `ctx stats` as a page, its figures from the same rows the CLI
// prints (core/search/index-stats-text.ts, search/fork-history-text.ts), the projects and months as tables, and the
// team as this machine knows it. Project names, paths and the team's errors are text: Hono JSX escapes them.

import type { IndexStatsReport } from "../../core/search/index-stats-schema.ts";
import { indexSummaryRows } from "../../core/search/index-stats-text.ts";
import { forkStatsRows } from "../../search/fork-history-text.ts";
import { INTEGRITY_NOT_CHECKED } from "../../search/index-stats.ts";
import type { TeamStatus } from "../../team/status.ts";
import type { IndexPageData } from "./index-data.ts";
import { PartOf } from "./part.tsx";
import { TableHead } from "./table-head.tsx";
import { sessionHref, shortDate } from "./text.ts";

export function IndexView({ data }: { data: IndexPageData }) {
  return (
    <section class="view view-index" aria-labelledby="index-title">
      <h1 id="index-title">Index and team</h1>
      <h2>Session index</h2>
      <PartOf part={data.stats}>{(stats) => <StatsPart stats={stats} />}</PartOf>
      <h2>Forks</h2>
      <PartOf part={data.forks}>{(forks) => <Rows rows={forkStatsRows(forks)} />}</PartOf>
      <h2>Team</h2>
      <PartOf part={data.team}>{(team) => <TeamPart team={team} />}</PartOf>
    </section>
  );
}

function Rows({ rows }: { rows: ReadonlyArray<readonly [string, string]> }) {
  return (
    <dl class="figures">
      {rows.map(([label, value]) => (
        <>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </>
      ))}
    </dl>
  );
}

function StatsPart({ stats }: { stats: IndexStatsReport }) {
  if (!stats.exists) return <p class="view-empty">No session index yet ({stats.path}): run ctx index to build it.</p>;
  return (
    <>
      {stats.integrity === "ok" ? null : stats.integrity === INTEGRITY_NOT_CHECKED ? (
        <p class="view-meta">
          ctx stats --check checks the file's integrity (it reads the whole file); this page does not wait for it.
        </p>
      ) : (
        <p class="view-error">
          The index is damaged ({stats.integrity}): ctx reindex moves it aside and builds it again.
        </p>
      )}
      <Rows rows={indexSummaryRows(stats)} />
      <div class="table-wrap">
        <table class="view-table by-project">
          <caption>Sessions by project</caption>
          <TableHead columns={["project", { numeric: "sessions" }, "last active"]} />
          <tbody>
            {stats.byProject.map((entry) => (
              <tr>
                <td>
                  <code>{entry.project === "" ? "(none)" : entry.project}</code>
                </td>
                <td class="num">{entry.sessions}</td>
                <td>{shortDate(entry.lastActiveAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="table-wrap">
        <table class="view-table by-month">
          <caption>Sessions by month (UTC, of the first message)</caption>
          <TableHead columns={["month", { numeric: "sessions" }]} />
          <tbody>
            {[...stats.byMonth].reverse().map((entry) => (
              <tr>
                <td>{entry.month}</td>
                <td class="num">{entry.sessions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function TeamPart({ team }: { team: TeamStatus }) {
  if (!team.joined) {
    return <p class="view-empty">Not joined to a team (ctx team join; docs/team.md). Nothing is pushed.</p>;
  }
  const { sharing } = team;
  return (
    <>
      <Rows
        rows={[
          ["server", team.server ?? "–"],
          ["team", team.team ?? "–"],
          ["shared projects", String(sharing.projects.length)],
          ["outbox", `${sharing.outbox.items} item(s) of ${sharing.outbox.sessions} session(s)`],
          ["oldest queued", shortDate(sharing.outbox.oldestAt)],
          ["last push", sharing.lastPushAt === null ? "never" : shortDate(sharing.lastPushAt)],
          ...(sharing.lastError === null ? [] : [["last error", sharing.lastError] as [string, string]]),
        ]}
      />
      {sharing.projects.length === 0 ? null : (
        <ul class="shared-projects">
          {sharing.projects.map((project) => (
            <li>
              <code>{project.remoteUrl}</code> {project.repoPath === "" ? "" : `/${project.repoPath}`}
            </li>
          ))}
        </ul>
      )}
      {sharing.setAside.length === 0 ? null : (
        <>
          <h3>Set aside (the server refused them)</h3>
          <ul class="set-aside">
            {sharing.setAside.map((session) => (
              <li>
                <a href={sessionHref(session.sessionId)}>{session.sessionId.slice(0, 8)}</a> {shortDate(session.at)}:{" "}
                {session.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
