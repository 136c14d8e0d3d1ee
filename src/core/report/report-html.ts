// `ctx report` as one self-contained HTML page: inline CSS and an inline SVG chart, no script, no network, no
// external src or href. The chart is the drawn session's context window over its replies (one per tool call), with
// the window, the auto-compaction line and the guard's tier thresholds, and markers for compactions, the tiers the
// guard announced, and snapshots. Every marker carries a class and a <title> so a test (and a person) can find it.
import type { ContextCurve } from "./context-curve.ts";

export interface ReportSessionRow {
  sessionId: string;
  startedAt: string | null;
  endedAt: string | null;
  source: string | null;
  transcriptPath: string | null;
  transcriptBytes: number | null;
  replies: number;
  peakTokens: number;
  compactions: number;
  snapshots: number;
}

export interface ReportData {
  projectRoot: string;
  generatedAt: string;
  weeks: number;
  sessions: ReportSessionRow[];
  /** The session drawn, and its curve; null when no session has a readable transcript. */
  session: { sessionId: string; transcriptPath: string; curve: ContextCurve } | null;
  indexBytes: number | null;
}

export interface TierThresholds {
  warning: number;
  advisory: number;
  yellow: number;
  critical: number;
}

const TIER_COLORS: Record<string, string> = {
  ok: "#3b82f6",
  warning: "#eab308",
  advisory: "#f97316",
  yellow: "#d97706",
  critical: "#dc2626",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const kTokens = (n: number) => (n >= 1_000_000 ? `${(n / 1_000_000).toFixed(2)}M` : `${Math.round(n / 1000)}K`);
const bytes = (n: number | null) =>
  n === null ? "–" : n >= 1_048_576 ? `${(n / 1_048_576).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;

export function renderReportHtml(data: ReportData, thresholds: TierThresholds, version: string): string {
  const title = `ctx report: ${data.projectRoot}`;
  const chart =
    data.session === null
      ? '<p class="empty">No session with a readable transcript yet.</p>'
      : renderChart(data.session.curve, thresholds);
  const drawn = data.session;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #111827; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.meta { color: #6b7280; margin: 0 0 16px; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e5e7eb; }
th { font-weight: 600; color: #374151; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.drawn td { background: #eff6ff; }
.legend span { margin-right: 16px; white-space: nowrap; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
svg.chart { display: block; width: 100%; max-width: ${WIDTH}px; height: auto; }
svg text { font: 11px system-ui, sans-serif; fill: #374151; }
code { font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
.meta, p { overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; }
</style>
</head>
<body>
<h1>Context window</h1>
<p class="meta">${escapeHtml(data.projectRoot)} · generated ${escapeHtml(data.generatedAt)} by ctx ${escapeHtml(version)}</p>
${drawn === null ? "" : `<p>Session <code>${escapeHtml(drawn.sessionId)}</code>: ${drawn.curve.points.length} replies with usage, peak ${kTokens(drawn.curve.peakTokens)} of a ${kTokens(drawn.curve.windowTokens)} window${drawn.curve.model === null ? "" : ` (${escapeHtml(drawn.curve.model)})`}, ${drawn.curve.compactions.length} compaction(s), ${drawn.curve.snapshots.length} snapshot(s).</p>`}
${chart}
${drawn === null ? "" : LEGEND}
<h2>Sessions of the last ${data.weeks} weeks</h2>
${renderSessions(data)}
<h2>Session index</h2>
<p>${data.indexBytes === null ? "not built yet (<code>ctx index</code> builds it)" : `<code>index.db</code>: ${bytes(data.indexBytes)}`}</p>
</body>
</html>
`;
}

/** The chart's legend: only beside a chart. */
const LEGEND = `<p class="legend">
<span><i class="swatch" style="background:#3b82f6"></i>context used (real usage of each reply)</span>
<span><i class="swatch" style="background:#dc2626"></i>compaction</span>
<span><i class="swatch" style="background:#f97316"></i>tier the guard announced</span>
<span><i class="swatch" style="background:#7c3aed"></i>snapshot</span>
<span><i class="swatch" style="background:#9ca3af"></i>auto-compaction and tier thresholds</span>
</p>`;

function renderSessions(data: ReportData): string {
  if (data.sessions.length === 0) return '<p class="empty">No sessions seen in this project in that time.</p>';
  const rows = data.sessions.map((s) => {
    const drawn = data.session?.sessionId === s.sessionId ? ' class="drawn"' : "";
    return `<tr${drawn}><td><code>${escapeHtml(s.sessionId.slice(0, 8))}</code></td><td>${escapeHtml(s.startedAt ?? "–")}</td><td>${escapeHtml(s.endedAt ?? "–")}</td><td>${escapeHtml(s.source ?? "–")}</td><td class="num">${bytes(s.transcriptBytes)}</td><td class="num">${s.replies}</td><td class="num">${s.peakTokens === 0 ? "–" : kTokens(s.peakTokens)}</td><td class="num">${s.compactions}</td><td class="num">${s.snapshots}</td></tr>`;
  });
  return `<div class="table-wrap"><table class="sessions">
<thead><tr><th>session</th><th>started</th><th>ended</th><th>source</th><th class="num">transcript</th><th class="num">replies</th><th class="num">peak</th><th class="num">compactions</th><th class="num">snapshots</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table></div>`;
}

const WIDTH = 960;
const HEIGHT = 360;
const PAD = { left: 56, right: 16, top: 16, bottom: 36 };
/** The least distance between two threshold labels' baselines: an 11-unit font's line box (about 14 units) and air. */
const LABEL_GAP = 15;

/**
 * Baselines for labels wanted at `wanted` (chart units, top is 0), moved apart just enough that no two are closer
 * than LABEL_GAP: thresholds a few thousand tokens apart ("auto-compaction" and "critical") drew their labels on
 * top of each other. Each keeps its order; a label pushed below the plot moves the run above it up instead.
 */
export function spreadLabels(wanted: readonly number[]): number[] {
  const order = wanted.map((at, index) => ({ at, index })).sort((a, b) => a.at - b.at);
  const placed = order.map(({ at }) => at);
  for (let i = 1; i < placed.length; i++) placed[i] = Math.max(placed[i] ?? 0, (placed[i - 1] ?? 0) + LABEL_GAP);
  const bottom = HEIGHT - PAD.bottom - 2;
  const last = placed.length - 1;
  if (last >= 0 && (placed[last] ?? 0) > bottom) {
    placed[last] = bottom;
    for (let i = last - 1; i >= 0; i--) placed[i] = Math.min(placed[i] ?? 0, (placed[i + 1] ?? 0) - LABEL_GAP);
  }
  const result: number[] = new Array(wanted.length);
  order.forEach(({ index }, i) => {
    result[index] = placed[i] ?? 0;
  });
  return result;
}

function renderChart(curve: ContextCurve, thresholds: TierThresholds): string {
  const n = Math.max(1, curve.points.length);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const top = Math.max(curve.windowTokens, curve.peakTokens);
  const x = (index: number) => PAD.left + (n === 1 ? plotW / 2 : ((index - 1) / (n - 1)) * plotW);
  const y = (tokens: number) => PAD.top + plotH - (Math.max(0, tokens) / top) * plotH;
  const f = (v: number) => v.toFixed(1);
  const parts: string[] = [];

  // Axes, window and thresholds (percent of the window remaining before auto-compaction, as the guard counts).
  parts.push(
    `<rect x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}" fill="#f9fafb" stroke="#e5e7eb"/>`,
  );
  for (let i = 0; i <= 4; i++) {
    const tokens = (top * i) / 4;
    parts.push(`<text x="${PAD.left - 6}" y="${f(y(tokens) + 4)}" text-anchor="end">${kTokens(tokens)}</text>`);
  }
  const lines: { tokens: number; cls: string; label: string; dash: string }[] = [
    { tokens: curve.windowTokens, cls: "window-line", label: `window ${kTokens(curve.windowTokens)}`, dash: "" },
    { tokens: curve.autoCompactTokens, cls: "threshold-line", label: "auto-compaction", dash: "6 3" },
  ];
  for (const tier of ["warning", "advisory", "yellow", "critical"] as const) {
    const used = curve.autoCompactTokens - (thresholds[tier] / 100) * curve.windowTokens;
    if (used > 0) lines.push({ tokens: used, cls: "threshold-line", label: tier, dash: "2 4" });
  }
  const labelY = spreadLabels(lines.map((entry) => y(entry.tokens) - 3));
  lines.forEach(({ tokens, cls, label, dash }, i) => {
    parts.push(
      `<g class="${cls}"><line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${f(y(tokens))}" y2="${f(y(tokens))}" stroke="#9ca3af" stroke-dasharray="${dash}"/><text x="${PAD.left + plotW - 4}" y="${f(labelY[i] ?? y(tokens) - 3)}" text-anchor="end">${escapeHtml(label)}</text><title>${escapeHtml(label)}: ${kTokens(tokens)} tokens</title></g>`,
    );
  });
  parts.push(
    `<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 6}" text-anchor="middle">replies with usage (one per tool call), oldest first</text>`,
  );

  // The curve: one polyline per stretch between compactions, so a compaction shows as a drop, not a slope.
  const breaks = new Set(curve.compactions.map((c) => c.afterIndex));
  let stretch: string[] = [];
  const flush = () => {
    if (stretch.length > 1)
      parts.push(
        `<polyline class="curve" fill="none" stroke="#3b82f6" stroke-width="1.5" points="${stretch.join(" ")}"/>`,
      );
    stretch = [];
  };
  for (const point of curve.points) {
    if (breaks.has(point.index - 1)) flush();
    stretch.push(`${f(x(point.index))},${f(y(point.usedTokens))}`);
  }
  flush();
  for (const point of curve.points) {
    parts.push(
      `<circle class="point" data-index="${point.index}" data-tokens="${point.usedTokens}" cx="${f(x(point.index))}" cy="${f(y(point.usedTokens))}" r="2" fill="${TIER_COLORS[point.tier] ?? "#3b82f6"}"><title>reply ${point.index}: ${point.usedTokens} tokens (${point.tier})${point.at === null ? "" : ` at ${escapeHtml(point.at)}`}</title></circle>`,
    );
  }
  for (const compaction of curve.compactions) {
    const at = x(Math.min(n, compaction.afterIndex + 0.5));
    const what = `compaction${compaction.trigger === null ? "" : ` (${compaction.trigger})`}${compaction.preTokens === null ? "" : `: ${compaction.preTokens} → ${compaction.postTokens ?? "?"} tokens`}`;
    parts.push(
      `<g class="compaction"><line x1="${f(at)}" x2="${f(at)}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke="#dc2626" stroke-width="1.5"/><title>${escapeHtml(what)}</title></g>`,
    );
  }
  for (const mark of curve.tierMarks) {
    const point = curve.points[mark.index - 1];
    if (point === undefined) continue;
    const cx = x(point.index);
    const cy = y(point.usedTokens) - 8;
    parts.push(
      `<path class="tier-mark" data-tier="${mark.tier}" d="M${f(cx - 5)},${f(cy - 6)} L${f(cx + 5)},${f(cy - 6)} L${f(cx)},${f(cy + 2)} Z" fill="${TIER_COLORS[mark.tier] ?? "#f97316"}"><title>guard: ${mark.tier} (${mark.reason}) at reply ${mark.index}</title></path>`,
    );
  }
  for (const snapshot of curve.snapshots) {
    const point = curve.points[snapshot.index - 1];
    if (point === undefined) continue;
    const cx = x(point.index);
    const cy = PAD.top + plotH - 8;
    parts.push(
      `<path class="snapshot-mark" d="M${f(cx)},${f(cy - 6)} L${f(cx + 6)},${f(cy)} L${f(cx)},${f(cy + 6)} L${f(cx - 6)},${f(cy)} Z" fill="#7c3aed"><title>snapshot ${escapeHtml(snapshot.id)} (${escapeHtml(snapshot.trigger)}) at ${escapeHtml(snapshot.at)}</title></path>`,
    );
  }
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="context window over the session">
${parts.join("\n")}
</svg>`;
}
