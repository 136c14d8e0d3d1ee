// The guard's usage over one session as JSX SVG: the same curve `ctx report` draws (core/report/context-curve.ts,
// its geometry and label spreading from core/report/report-html.ts), with every value escaped by Hono JSX instead of
// by hand, and colours as classes (../assets/views.css) because the page's CSP allows no inline style.
import type { ContextCurve } from "../../core/report/context-curve.ts";
import { spreadLabels, type TierThresholds } from "../../core/report/report-html.ts";
import { kTokens } from "./text.ts";

const WIDTH = 960;
const HEIGHT = 360;
const PAD = { left: 56, right: 16, top: 16, bottom: 36 };
const TIERS = ["warning", "advisory", "yellow", "critical"] as const;

const f = (v: number) => v.toFixed(1);

export function UsageChart({ curve, thresholds }: { curve: ContextCurve; thresholds: TierThresholds }) {
  const n = Math.max(1, curve.points.length);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const top = Math.max(1, curve.windowTokens, curve.peakTokens);
  const x = (index: number) => PAD.left + (n === 1 ? plotW / 2 : ((index - 1) / (n - 1)) * plotW);
  const y = (tokens: number) => PAD.top + plotH - (Math.max(0, tokens) / top) * plotH;

  // The window, auto-compaction and the guard's tiers (percent of the window left before auto-compaction).
  const lines = [
    { tokens: curve.windowTokens, cls: "window-line", label: `window ${kTokens(curve.windowTokens)}` },
    { tokens: curve.autoCompactTokens, cls: "threshold-line threshold-auto", label: "auto-compaction" },
  ];
  for (const tier of TIERS) {
    const used = curve.autoCompactTokens - (thresholds[tier] / 100) * curve.windowTokens;
    if (used > 0) lines.push({ tokens: used, cls: `threshold-line threshold-${tier}`, label: tier });
  }
  const labelY = spreadLabels(lines.map((entry) => y(entry.tokens) - 3));

  // One polyline per stretch between compactions: a compaction shows as a drop, not a slope.
  const breaks = new Set(curve.compactions.map((c) => c.afterIndex));
  const stretches: string[][] = [[]];
  for (const point of curve.points) {
    if (breaks.has(point.index - 1) && (stretches.at(-1)?.length ?? 0) > 0) stretches.push([]);
    stretches.at(-1)?.push(`${f(x(point.index))},${f(y(point.usedTokens))}`);
  }

  return (
    <svg class="usage-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="context window over the session">
      <rect class="plot" x={PAD.left} y={PAD.top} width={plotW} height={plotH} />
      {[0, 1, 2, 3, 4].map((i) => (
        <text class="axis" x={PAD.left - 6} y={f(y((top * i) / 4) + 4)} text-anchor="end">
          {kTokens((top * i) / 4)}
        </text>
      ))}
      {lines.map((line, i) => (
        <g class={line.cls}>
          <line x1={PAD.left} x2={PAD.left + plotW} y1={f(y(line.tokens))} y2={f(y(line.tokens))} />
          <text x={PAD.left + plotW - 4} y={f(labelY[i] ?? y(line.tokens) - 3)} text-anchor="end">
            {line.label}
          </text>
          <title>{`${line.label}: ${kTokens(line.tokens)} tokens`}</title>
        </g>
      ))}
      <text class="axis" x={PAD.left + plotW / 2} y={HEIGHT - 6} text-anchor="middle">
        replies with usage (one per tool call), oldest first
      </text>
      {stretches
        .filter((stretch) => stretch.length > 1)
        .map((stretch) => (
          <polyline class="curve" points={stretch.join(" ")} />
        ))}
      {curve.points.map((point) => (
        <circle
          class={`point tier-${point.tier}`}
          data-index={point.index}
          data-tokens={point.usedTokens}
          cx={f(x(point.index))}
          cy={f(y(point.usedTokens))}
          r={2}
        >
          <title>{`reply ${point.index}: ${point.usedTokens} tokens (${point.tier})${point.at === null ? "" : ` at ${point.at}`}`}</title>
        </circle>
      ))}
      {curve.compactions.map((compaction) => {
        const at = f(x(Math.min(n, compaction.afterIndex + 0.5)));
        const tokens =
          compaction.preTokens === null ? "" : `: ${compaction.preTokens} → ${compaction.postTokens ?? "?"} tokens`;
        return (
          <g class="compaction">
            <line x1={at} x2={at} y1={PAD.top} y2={PAD.top + plotH} />
            <title>{`compaction${compaction.trigger === null ? "" : ` (${compaction.trigger})`}${tokens}`}</title>
          </g>
        );
      })}
      {curve.tierMarks.map((mark) => {
        const point = curve.points[mark.index - 1];
        if (point === undefined) return null;
        const cx = x(point.index);
        const cy = y(point.usedTokens) - 8;
        return (
          <path
            class={`tier-mark tier-${mark.tier}`}
            data-tier={mark.tier}
            d={`M${f(cx - 5)},${f(cy - 6)} L${f(cx + 5)},${f(cy - 6)} L${f(cx)},${f(cy + 2)} Z`}
          >
            <title>{`guard: ${mark.tier} (${mark.reason}) at reply ${mark.index}`}</title>
          </path>
        );
      })}
      {curve.snapshots.map((snapshot) => {
        const point = curve.points[snapshot.index - 1];
        if (point === undefined) return null;
        const cx = x(point.index);
        const cy = PAD.top + plotH - 8;
        return (
          <path
            class="snapshot-mark"
            d={`M${f(cx)},${f(cy - 6)} L${f(cx + 6)},${f(cy)} L${f(cx)},${f(cy + 6)} L${f(cx - 6)},${f(cy)} Z`}
          >
            <title>{`snapshot ${snapshot.id} (${snapshot.trigger}) at ${snapshot.at}`}</title>
          </path>
        );
      })}
    </svg>
  );
}
