// The report page is self-contained (no src, href, script or external CSS), escapes what comes from files, and
// draws exactly the points and markers of the curve it is given.
import { describe, expect, it } from "vitest";
import type { ContextCurve } from "./context-curve.ts";
import { type ReportData, renderReportHtml, spreadLabels } from "./report-html.ts";

const curve: ContextCurve = {
  points: [
    { index: 1, at: "2026-01-01T12:00:00.000Z", usedTokens: 50_000, tier: "ok" },
    { index: 2, at: "2026-01-01T12:01:00.000Z", usedTokens: 150_000, tier: "advisory" },
    { index: 3, at: "2026-01-01T12:02:00.000Z", usedTokens: 30_000, tier: "ok" },
  ],
  compactions: [{ afterIndex: 2, at: null, trigger: "auto", preTokens: 150_000, postTokens: 28_000 }],
  tierMarks: [{ index: 2, tier: "advisory", reason: "escalation" }],
  snapshots: [{ index: 2, id: "20260101T120130000Z-abcdef", trigger: "auto", at: "2026-01-01T12:01:30.000Z" }],
  windowTokens: 200_000,
  autoCompactTokens: 167_000,
  model: "claude-<b>",
  peakTokens: 150_000,
};
const data = (session: ReportData["session"]): ReportData => ({
  projectRoot: "/work/<script>alert(1)</script>",
  generatedAt: "2026-01-02T00:00:00.000Z",
  weeks: 4,
  sessions: [
    {
      sessionId: "s-1",
      startedAt: "2026-01-01T12:00:00.000Z",
      endedAt: null,
      source: "startup",
      transcriptPath: "/t.jsonl",
      transcriptBytes: 2048,
      replies: 3,
      peakTokens: 150_000,
      compactions: 1,
      snapshots: 1,
    },
  ],
  session,
  indexBytes: 3 * 1_048_576,
});
const thresholds = { warning: 30, advisory: 15, yellow: 7, critical: 3 };
const count = (html: string, cls: string) => html.match(new RegExp(`class="${cls}"`, "g"))?.length ?? 0;

describe("report page", () => {
  it("is self-contained and escapes text from files", () => {
    const html = renderReportHtml(data({ sessionId: "s-1", transcriptPath: "/t.jsonl", curve }), thresholds, "1.0.0");
    expect(html.match(/\s(src|href)=/g)).toBeNull();
    expect(html).not.toMatch(/<script|<link|@import|url\(/i);
    expect(html).toContain("/work/&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(html).toContain("claude-&#60;b&#62;");
    expect(html).toContain("<code>index.db</code>: 3.0 MiB");
  });

  it("draws the curve's points and markers, and breaks the line at a compaction", () => {
    const html = renderReportHtml(data({ sessionId: "s-1", transcriptPath: "/t.jsonl", curve }), thresholds, "1.0.0");
    expect(count(html, "point")).toBe(3);
    expect(count(html, "compaction")).toBe(1);
    expect(count(html, "tier-mark")).toBe(1);
    expect(count(html, "snapshot-mark")).toBe(1);
    expect(count(html, "curve")).toBe(1); // points 1-2; point 3 alone after the compaction draws no segment
    expect(count(html, "threshold-line")).toBe(5);
    expect(html).toContain("compaction (auto): 150000 → 28000 tokens");
  });

  it("says so when there is nothing to draw", () => {
    const html = renderReportHtml({ ...data(null), sessions: [], indexBytes: null }, thresholds, "1.0.0");
    expect(html).toContain("No session with a readable transcript yet.");
    expect(html).toContain("No sessions seen in this project in that time.");
    expect(count(html, "point")).toBe(0);
    expect(html).not.toContain('class="legend"'); // no legend for a chart that is not drawn
  });

  it("scales the chart to its container: a viewBox, no fixed width", () => {
    const html = renderReportHtml(data({ sessionId: "s-1", transcriptPath: "/t.jsonl", curve }), thresholds, "1.0.0");
    expect(html).toMatch(/<svg class="chart" viewBox="0 0 960 360" role="img"/);
    expect(html).not.toMatch(/<svg[^>]* width="/);
    expect(html).toContain('class="legend"');
  });
});

describe("spreadLabels", () => {
  it("moves labels closer than a line apart just enough, keeping their order", () => {
    expect(spreadLabels([100, 300])).toEqual([100, 300]);
    expect(spreadLabels([60, 65, 62])).toEqual([60, 90, 75]);
  });

  it("moves a run that would leave the plot at the bottom up instead", () => {
    const placed = spreadLabels([318, 320]);
    expect(placed[1]).toBe(322);
    expect(placed[0]).toBe(307);
  });
});
