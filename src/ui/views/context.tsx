// The context page (docs/ui.md "This project's context"): the usage chart and the sessions of the last weeks, the
// compaction audits, snapshots and checkpoints, the budget and the rules (./context-parts.tsx), each from
// ./context-data.ts. A part that could not be read says why in its own place. Hono JSX escapes every value.

import type { ReportData } from "../../core/report/report-html.ts";
import { formatBytes } from "../../core/search/index-stats-text.ts";
import type { CheckpointEntry } from "../../store/snapshots/checkpoints.ts";
import type { SnapshotEntry } from "../../store/snapshots/snapshots.ts";
import type { ContextData } from "./context-data.ts";
import { AuditsPart, BudgetPart, RulesPart } from "./context-parts.tsx";
import { PartOf } from "./part.tsx";
import { TableHead } from "./table-head.tsx";
import { kTokens, sessionHref, shortDate } from "./text.ts";
import { UsageChart } from "./usage-chart.tsx";

export function ContextView({ data }: { data: ContextData }) {
  return (
    <section class="view view-context" aria-labelledby="context-title">
      <h1 id="context-title">This project's context</h1>
      <p class="view-meta">
        <code>{data.projectRoot}</code>
      </p>
      <h2>Usage over time</h2>
      <PartOf part={data.usage}>{(report) => <UsagePart report={report} data={data} />}</PartOf>
      <h2>Compactions and what each one lost</h2>
      <PartOf part={data.audits}>{(audits) => <AuditsPart {...audits} />}</PartOf>
      <h2>Snapshots and checkpoints</h2>
      <PartOf part={data.snapshots}>{(snapshots) => <SnapshotsPart snapshots={snapshots} />}</PartOf>
      <PartOf part={data.checkpoints}>{(checkpoints) => <CheckpointsPart checkpoints={checkpoints} />}</PartOf>
      <h2>Budget</h2>
      <PartOf part={data.budget}>{(budget) => <BudgetPart {...budget} />}</PartOf>
      <h2>Rules</h2>
      <PartOf part={data.rules}>{(rules) => <RulesPart cascade={rules} />}</PartOf>
    </section>
  );
}

function UsagePart({ report, data }: { report: ReportData; data: ContextData }) {
  const drawn = report.session;
  return (
    <>
      {drawn === null ? (
        <p class="view-empty">No session with a readable transcript yet.</p>
      ) : (
        <>
          <p>
            Session <a href={sessionHref(drawn.sessionId)}>{drawn.sessionId.slice(0, 8)}</a>:{" "}
            {drawn.curve.points.length} replies with usage, peak {kTokens(drawn.curve.peakTokens)} of a{" "}
            {kTokens(drawn.curve.windowTokens)} window{drawn.curve.model === null ? "" : ` (${drawn.curve.model})`},{" "}
            {drawn.curve.compactions.length} compaction(s), {drawn.curve.snapshots.length} snapshot(s).
          </p>
          <div class="chart-wrap">
            <UsageChart curve={drawn.curve} thresholds={data.thresholds} />
          </div>
          <p class="chart-legend">
            <span class="legend-item legend-curve">context used</span>
            <span class="legend-item legend-compaction">compaction</span>
            <span class="legend-item legend-tier">tier the guard announced</span>
            <span class="legend-item legend-snapshot">snapshot</span>
            <span class="legend-item legend-threshold">auto-compaction and tier thresholds</span>
          </p>
        </>
      )}
      {report.sessions.length === 0 ? (
        <p class="view-empty">No sessions seen in this project in the last {report.weeks} weeks.</p>
      ) : (
        <div class="table-wrap">
          <table class="view-table">
            <TableHead
              columns={[
                "session",
                "started",
                { numeric: "transcript" },
                { numeric: "replies" },
                { numeric: "peak" },
                { numeric: "compactions" },
                { numeric: "snapshots" },
              ]}
            />
            <tbody>
              {report.sessions.map((row) => (
                <tr class={drawn?.sessionId === row.sessionId ? "drawn" : undefined}>
                  <td>
                    <a href={sessionHref(row.sessionId)}>{row.sessionId.slice(0, 8)}</a>
                  </td>
                  <td>{shortDate(row.startedAt)}</td>
                  <td class="num">{row.transcriptBytes === null ? "–" : formatBytes(row.transcriptBytes)}</td>
                  <td class="num">{row.replies}</td>
                  <td class="num">{row.peakTokens === 0 ? "–" : kTokens(row.peakTokens)}</td>
                  <td class="num">{row.compactions}</td>
                  <td class="num">{row.snapshots}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function SnapshotsPart({ snapshots }: { snapshots: SnapshotEntry[] }) {
  if (snapshots.length === 0) return <p class="view-empty">No snapshots yet (one is taken before each compaction).</p>;
  return (
    <div class="table-wrap">
      <table class="view-table snapshots">
        <TableHead columns={["snapshot", "taken", "why", "session", { numeric: "size" }]} />
        <tbody>
          {snapshots.map((snapshot) => (
            <tr>
              <td>
                <code>{snapshot.id}</code>
                {snapshot.pinned ? <span class="badge snapshot-pinned">pinned</span> : null}
                {snapshot.name === undefined ? null : <span class="snapshot-name"> {snapshot.name}</span>}
              </td>
              <td>{shortDate(snapshot.createdAt)}</td>
              <td>{snapshot.trigger}</td>
              <td>
                <a href={sessionHref(snapshot.sessionId)}>{snapshot.sessionId.slice(0, 8)}</a>
              </td>
              <td class="num">{formatBytes(snapshot.fileBytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CheckpointsPart({ checkpoints }: { checkpoints: CheckpointEntry[] }) {
  if (checkpoints.length === 0) return <p class="view-empty">No checkpoints.</p>;
  const newest = checkpoints[0];
  return (
    <p>
      {checkpoints.length} checkpoint(s), the newest {shortDate(newest?.createdAt ?? null)} (
      {formatBytes(checkpoints.reduce((sum, entry) => sum + entry.fileBytes, 0))} in all).
    </p>
  );
}
