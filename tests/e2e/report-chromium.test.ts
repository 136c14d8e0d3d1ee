// `ctx report` in a real headless Chromium (Debian's `chromium`; .ci/run installs it): a project whose session is a
// real transcript with a compaction goes through SessionStart and PreCompact, then the page ctx writes loads with
// no console message, holds one chart point per reply with usage plus the compaction, tier and snapshot markers the
// JSON reports, and references nothing outside itself. The screenshot is kept in test-artifacts/ to look at.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { FIXTURE } from "../helpers/claude-projects.ts";
import { missingTool } from "../helpers/required-tool.ts";
import { runCtx } from "./ctx-process.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const SESSION = "4d5611e5-241a-462a-8d15-5122611a9569";
const TRANSCRIPT = FIXTURE.long;
const ARTIFACTS = join(REPO, "test-artifacts");
const chromium = ["chromium", "chromium-browser"].find((bin) => spawnSync(bin, ["--version"]).status === 0);

/** Headless Chromium on a file: the DOM after load and Chromium's log (console messages appear as CONSOLE lines). */
function loadInChromium(file: string, extra: string[] = []): { dom: string; log: string } {
  const run = spawnSync(
    chromium ?? "chromium",
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--enable-logging=stderr",
      "--v=0",
      // No network at all: a page that reached out would fail to load something and log it.
      "--host-resolver-rules=MAP * ~NOTFOUND",
      `--user-data-dir=${mkdtempSync(join(tmpdir(), "ctx-chromium-"))}`,
      ...extra,
      pathToFileURL(file).href,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  return { dom: run.stdout, log: run.stderr };
}
/** Measures the chart's text boxes and the page's width after load; writes them where --dump-dom shows them. */
const MEASURE = `<script>
addEventListener("load", () => {
  const boxes = [...document.querySelectorAll("svg.chart text")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
  const overlaps = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom) overlaps.push(a.text + " / " + b.text);
  }));
  const pre = document.createElement("pre");
  pre.id = "measure";
  pre.textContent = JSON.stringify({ scrollWidth: document.documentElement.scrollWidth, innerWidth, labels: boxes.length, overlaps });
  document.body.append(pre);
});
</script>`;
const consoleLines = (log: string) => log.split("\n").filter((line) => line.includes(":CONSOLE"));
const count = (dom: string, cls: string) => dom.match(new RegExp(`class="${cls}"`, "g"))?.length ?? 0;

const chromiumMissing = missingTool("Chromium", chromium !== undefined, "apt-get install -y chromium");

describe.skipIf(chromiumMissing !== null)("ctx report in headless Chromium", () => {
  it("loads with no console message and draws every point and marker", async () => {
    const base = mkdtempSync(join(tmpdir(), "ctx-report-e2e-"));
    const project = join(base, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    const env = { HOME: base, CTX_HOME: join(base, "ctx-home"), CTX_LOG_LEVEL: "warn" };
    for (const [event, extra] of [
      ["session-start", '"hook_event_name":"SessionStart","source":"startup"'],
      ["pre-compact", '"hook_event_name":"PreCompact","trigger":"auto"'],
    ]) {
      const input = `{"session_id":"${SESSION}","transcript_path":"${TRANSCRIPT}","cwd":"${project}",${extra}}`;
      const hook = await runCtx(["hook", event ?? ""], { cwd: project, env, stdin: input });
      expect(hook.code, hook.stderr).toBe(0);
    }
    const report = await runCtx(["report", "--json"], { cwd: project, env });
    expect(report.code, report.stderr).toBe(0);
    const summary = JSON.parse(report.stdout) as Record<string, number | string>;
    expect(summary).toMatchObject({ sessionId: SESSION, compactions: 1, snapshots: 1, sessions: 1 });
    expect(summary.points).toBeGreaterThan(200);
    expect(summary.tierMarks).toBeGreaterThan(0);

    const file = String(summary.file);
    const html = readFileSync(file, "utf8");
    expect(html.match(/\s(src|href)=/g)).toBeNull();
    expect(html).not.toMatch(/<script|<link|@import|url\(/i);

    mkdirSync(ARTIFACTS, { recursive: true });
    const screenshot = join(ARTIFACTS, "report.png");
    const shot = loadInChromium(file, ["--hide-scrollbars", "--window-size=1040,900", `--screenshot=${screenshot}`]);
    expect(shot.log).toContain("bytes written to file");
    const { dom, log } = loadInChromium(file, ["--dump-dom"]);
    expect(consoleLines(log)).toEqual([]);
    expect(count(dom, "point")).toBe(summary.points);
    expect(count(dom, "compaction")).toBe(1);
    expect(count(dom, "tier-mark")).toBe(summary.tierMarks);
    expect(count(dom, "snapshot-mark")).toBe(1);
    expect(dom).toContain(`<code>${SESSION}</code>`);

    // At 1280 and at 480 px wide: the chart fits (no sideways scrolling) and no two of its labels overlap. Measured
    // in a copy of the page that may run a script (the page itself forbids scripts); screenshots kept to look at.
    const measured = join(mkdtempSync(join(tmpdir(), "ctx-report-measure-")), "measure.html");
    writeFileSync(
      measured,
      html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "").replace("</body>", `${MEASURE}</body>`),
    );
    for (const width of [1280, 480]) {
      loadInChromium(file, [
        "--hide-scrollbars",
        `--window-size=${width},900`,
        `--screenshot=${join(ARTIFACTS, `report-${width}.png`)}`,
      ]);
      const page = loadInChromium(measured, [`--window-size=${width},900`, "--dump-dom"]).dom;
      const result = JSON.parse(
        page.match(/<pre id="measure">([^<]*)<\/pre>/)?.[1]?.replaceAll("&quot;", '"') ?? "null",
      ) as {
        scrollWidth: number;
        innerWidth: number;
        labels: number;
        overlaps: string[];
      } | null;
      expect(result, `measured at ${width} px`).not.toBeNull();
      expect(result?.labels).toBeGreaterThan(8);
      expect(result?.overlaps, `at ${width} px`).toEqual([]);
      expect(result?.scrollWidth, `at ${width} px`).toBeLessThanOrEqual(result?.innerWidth ?? 0);
    }
  });

  it("would notice a page that logs to the console (control for the check above)", () => {
    const page = join(mkdtempSync(join(tmpdir(), "ctx-chromium-control-")), "bad.html");
    writeFileSync(page, "<!doctype html><p>x</p><script>missingFunction();</script>");
    expect(consoleLines(loadInChromium(page, ["--dump-dom"]).log).join("\n")).toContain(
      "missingFunction is not defined",
    );
  });
});
