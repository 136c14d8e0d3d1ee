// The context page on a real project: a session recorded as SessionStart records it, a real 3 MB Claude Code
// transcript with compactions (tests/fixtures/claude), a snapshot, an audit, the budget and CLAUDE.md rules, with
// hostile text in every place a person or a transcript writes; and a damaged budget file that costs only its part.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliProject, takeSnapshot } from "../../../tests/helpers/cli-project.ts";
import { expectInert, HOSTILE } from "../../../tests/helpers/hostile-views.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { writeAudit } from "../../store/audit/audit-store.ts";
import { budgetPath } from "../../store/budget/budget-store.ts";
import { addToBudget } from "../../store/budget/operations.ts";
import { readReportRowCache, reportRowCachePath, writeReportRowCache } from "../../store/report/report-rows-cache.ts";
import { ContextView } from "./context.tsx";
import { loadProjectContext } from "./context-data.ts";

const COMPACTED = "4d5611e5-241a-462a-8d15-5122611a9569";
const COMPACTED_PATH = new URL(
  `../../../tests/fixtures/claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/${COMPACTED}.jsonl`,
  import.meta.url,
).pathname;

async function hostileProject() {
  const project = await createCliProject();
  const env = { CTX_HOME: join(project.base, "ctx-home"), HOME: project.base };
  const config = defaultConfig();
  await project.recordStart(COMPACTED, COMPACTED_PATH, new Date());
  const snapshotId = await takeSnapshot(project, { name: "snap-<b>bold</b>" });
  writeFileSync(
    join(project.root, "CLAUDE.md"),
    `# Rules\n\n${HOSTILE.map((text) => `- (ENFORCED) ${text.replace(/\n/g, " ")}`).join("\n")}\n`,
  );
  await writeAudit(project.root, {
    version: 1,
    sessionId: project.sessionId,
    snapshotId,
    at: new Date().toISOString(),
    summarySource: "transcript",
    summaryChars: 100,
    threshold: 0.6,
    items: HOSTILE.map((text, i) => ({
      kind: "task",
      text,
      fate: (["kept", "paraphrased", "lost"] as const)[i % 3] ?? "lost",
      overlap: 0.5,
    })),
  });
  const deps = { projectRoot: project.root, caps: config.budget.caps, allowlist: [], now: () => new Date() };
  for (const text of HOSTILE.slice(0, 6)) await addToBudget(deps, { compartment: "active_task", text });
  return { project, env, config };
}

const render = async (data: Awaited<ReturnType<typeof loadProjectContext>>) =>
  String(await ContextView({ data }).toString());

describe("loadProjectContext", () => {
  it("reads every part from the project's files, the usage curve from the real transcript", async () => {
    const { project, env, config } = await hostileProject();
    const data = await loadProjectContext(env, project.root, { config, now: new Date(), sessionId: COMPACTED });
    if (!data.usage.ok) throw new Error(data.usage.error);
    expect(data.usage.value.session?.sessionId).toBe(COMPACTED);
    const curve = data.usage.value.session?.curve;
    expect(curve?.points.length).toBeGreaterThan(100);
    expect(curve?.compactions.length).toBeGreaterThan(0);
    expect(data.usage.value.sessions.map((row) => row.sessionId).sort()).toEqual([COMPACTED, project.sessionId].sort());
    expect(data.audits.ok && data.audits.value.audits).toHaveLength(1);
    expect(data.snapshots.ok && data.snapshots.value.map((s) => s.name)).toEqual(["snap-<b>bold</b>"]);
    expect(data.budget.ok && data.budget.value.items).toHaveLength(6);
    expect(data.rules.ok && data.rules.value.rules).toHaveLength(HOSTILE.length);

    const html = await render(data);
    expectInert(html);
    // The chart is there, with its compactions, and the escaped payloads are there as text.
    expect(html).toContain('class="usage-chart"');
    expect(html.match(/class="compaction"/g)?.length).toBe(curve?.compactions.length);
    expect(html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    expect(html).toContain("snap-&lt;b&gt;bold&lt;/b&gt;");
    expect(html).toMatch(/4 kept<\/span>.*4 paraphrased<\/span>.*4 lost<\/span>/s);
  });

  it("draws the most recent session by default, and a damaged budget file costs only its own part", async () => {
    const { project, env, config } = await hostileProject();
    writeFileSync(budgetPath(project.root), "not a container at all");
    const data = await loadProjectContext(env, project.root, { config, now: new Date() });
    expect(data.budget.ok).toBe(false);
    expect(data.rules.ok && data.audits.ok && data.snapshots.ok && data.usage.ok).toBe(true);
    const html = await render(data);
    expect(html).toContain("Could not read this part:");
    expectInert(html);
    // The damaged file is left for the person (the budget's own rule): the page only read it.
    expect(readFileSync(budgetPath(project.root), "utf8")).toBe("not a container at all");
  });

  it("an unknown session to draw is that part's error, the rest is shown", async () => {
    const { project, env, config } = await hostileProject();
    const data = await loadProjectContext(env, project.root, { config, now: new Date(), sessionId: "<nope>" });
    expect(data.usage).toEqual({ ok: false, error: expect.stringContaining("no session <nope>") });
    const html = await render(data);
    expect(html).toContain("no session &lt;nope&gt;");
    expectInert(html);
  });

  it("renders a curve, sessions and snapshots whose every text field is hostile as text", async () => {
    const [a = "", b = "", c = "", d = ""] = HOSTILE;
    const curve = {
      points: [1, 2, 3].map((index) => ({ index, at: a, usedTokens: index * 50_000, tier: "ok" as const })),
      compactions: [{ afterIndex: 2, at: b, trigger: c, preTokens: 100_000, postTokens: 20_000 }],
      tierMarks: [{ index: 2, tier: "warning" as const, reason: "velocity" as const }],
      snapshots: [{ index: 3, id: d, trigger: a, at: b }],
      windowTokens: 200_000,
      autoCompactTokens: 167_000,
      model: a,
      peakTokens: 150_000,
    };
    const session = { sessionId: b, startedAt: c, endedAt: null, source: d, transcriptPath: a, transcriptBytes: 1 };
    const html = await render({
      projectRoot: c,
      thresholds: { warning: 20, advisory: 15, yellow: 10, critical: 5 },
      usage: {
        ok: true,
        value: {
          projectRoot: c,
          generatedAt: a,
          weeks: 4,
          indexBytes: null,
          session: { sessionId: b, transcriptPath: a, curve },
          sessions: [{ ...session, replies: 3, peakTokens: 1, compactions: 1, snapshots: 1 }],
        },
      },
      audits: { ok: false, error: d },
      snapshots: { ok: true, value: [] },
      checkpoints: { ok: false, error: a },
      budget: { ok: false, error: b },
      rules: { ok: false, error: c },
    });
    expectInert(html);
    expect(html.match(/class="point tier-ok"/g)).toHaveLength(3);
    expect(html).toContain('class="tier-mark tier-warning"');
  });

  it("takes the rows of unchanged transcripts from the cache, and reads a changed or uncached one again", async () => {
    const { project, env, config } = await hostileProject();
    const load = () => loadProjectContext(env, project.root, { config, now: new Date(), sessionId: COMPACTED });
    const rowOf = async (id: string) => {
      const data = await load();
      if (!data.usage.ok) throw new Error(data.usage.error);
      return data.usage.value.sessions.find((row) => row.sessionId === id);
    };
    expect(await rowOf(project.sessionId)).toMatchObject({ replies: 3, compactions: 0 });
    const cached = await readReportRowCache(env);
    expect(cached.size).toBe(2);
    // A reading only the cache could give: the row shows it while its transcript is unchanged.
    await writeReportRowCache(
      env,
      new Map([...cached].map(([key]) => [key, { replies: 777, peakTokens: 1, compactions: 9 }])),
    );
    expect(await rowOf(project.sessionId)).toMatchObject({ replies: 777, compactions: 9 });
    // The drawn session is read whatever the cache says.
    const data = await load();
    expect(data.usage.ok && data.usage.value.session?.curve.points.length).toBeGreaterThan(100);
    appendFileSync(project.transcript, "\n");
    expect(await rowOf(project.sessionId)).toMatchObject({ replies: 3, compactions: 0 });
    // A damaged cache is an empty one.
    writeFileSync(reportRowCachePath(env), "{not json");
    expect(await rowOf(project.sessionId)).toMatchObject({ replies: 3 });
  });
});
