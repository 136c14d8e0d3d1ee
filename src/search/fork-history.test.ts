// Fork history over a real index of a fork made by Claude Code 2.1.330 (tests/fixtures/forks), a fork log with a
// hostile query and a corrupt line, and the paid-off sources it leaves for search.
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offerRecord } from "../core/library/fork-offer.ts";
import { appendForkLog, forkLogPath } from "../store/library/fork-log.ts";
import { readPaidOffSources } from "../store/library/fork-paid-off.ts";
import { forkHistoryForModel, loadForkHistory } from "./fork-history.ts";
import { ForksReportSchema } from "./fork-history-schema.ts";
import { resolveIndexPath } from "./paths.ts";
import { syncIndex } from "./sync/sync-index.ts";

const SOURCE = "d2e2675e-9085-415a-b095-cefa3b4cb8f2";
const FORK = "41bc45fa-0233-4d74-bf70-2109cda90960";
const FORK_MADE = Date.parse("2026-12-02T04:13:10.220Z");
const HOSTILE = "fix \u001b[2J\u001b]0;pwned\u0007 the\nimporter";

let root: string;
let env: NodeJS.ProcessEnv;
let forkPath: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ctx-fork-history-"));
  env = { CTX_HOME: join(root, ".ctx"), HOME: root };
  const folder = join(root, "claude", "projects", "-home-user-work-project");
  mkdirSync(folder, { recursive: true });
  const fixtures = new URL("../../tests/fixtures/forks/", import.meta.url);
  copyFileSync(new URL("source.jsonl", fixtures), join(folder, `${SOURCE}.jsonl`));
  forkPath = join(folder, `${FORK}.jsonl`);
  copyFileSync(new URL("fork.jsonl", fixtures), forkPath);
  mkdirSync(env.CTX_HOME ?? "", { recursive: true, mode: 0o700 });
  await syncIndex({ claudeDir: join(root, "claude"), dbPath: resolveIndexPath(env) });
  await appendForkLog(
    env,
    offerRecord(FORK_MADE - 60_000, "mcp", HOSTILE, [{ sessionId: SOURCE, point: null }], (text) => text),
  );
  appendFileSync(forkLogPath(env), "{torn\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("fork history", () => {
  it("finds the fork, the search that offered its source, and its outcome", async () => {
    const report = await loadForkHistory({ env, projectRoot: root });
    expect(ForksReportSchema.safeParse(report).success).toBe(true);
    expect(report.forks).toHaveLength(1);
    expect(report.forks[0]).toMatchObject({
      sessionId: FORK,
      source: SOURCE,
      fromSearch: true,
      ranBy: null,
      offer: { via: "mcp", query: HOSTILE },
      outcome: { verdict: "paid-off", prompts: 1, filesModified: ["/home/user/work/project/b.txt"] },
    });
    expect(report.stats).toMatchObject({ searches: 1, searchesFollowedByFork: 1, successRate: 1, skippedLogLines: 1 });
    // What search reads: the source's one paid-off fork.
    expect([...readPaidOffSources(env)]).toEqual([[SOURCE, 1]]);
  });

  it("gives Claude the list as text with every field on one line, and the report as data", async () => {
    const { text, structured } = await forkHistoryForModel({ env, projectRoot: root });
    expect(ForksReportSchema.safeParse(structured).success).toBe(true);
    expect(text).not.toContain("\u001b");
    expect(text).not.toContain("\u0007");
    expect(text).toContain(`from ${SOURCE}`);
    expect(text).toContain("search success rate");
    const queryLine = text.split("\n").find((line) => line.includes("offered by ctx_fork_detect"));
    expect(queryLine).toContain("the\\nimporter");
    expect((await forkHistoryForModel({ env, projectRoot: root, limit: 0 })).text).toContain("1 older fork(s)");
  });

  it("filters by project and time, and says so for a project it does not know", async () => {
    expect((await loadForkHistory({ env, projectRoot: root, project: "user-work" })).forks).toHaveLength(1);
    expect((await loadForkHistory({ env, projectRoot: root, since: FORK_MADE + 1 })).forks).toHaveLength(0);
    await expect(loadForkHistory({ env, projectRoot: root, project: "no-such-project" })).rejects.toThrow(
      /no indexed project matches/,
    );
  });

  it("reads a fork's transcript again only when it changed", async () => {
    await loadForkHistory({ env, projectRoot: root });
    const cachePath = join(env.CTX_HOME ?? "", "library", "fork-outcomes.json");
    expect(statSync(cachePath).mode & 0o777).toBe(0o600);
    // A reading kept for the transcript as it is answers instead of the transcript: shown by planting one.
    const cache = JSON.parse(readFileSync(cachePath, "utf8")) as { entries: Record<string, { prompts: number }> };
    for (const entry of Object.values(cache.entries)) entry.prompts = 99;
    writeFileSync(cachePath, JSON.stringify(cache));
    expect((await loadForkHistory({ env, projectRoot: root })).forks[0]?.outcome.prompts).toBe(99);
    // The transcript grows: read again.
    appendFileSync(forkPath, "\n");
    expect((await loadForkHistory({ env, projectRoot: root })).forks[0]?.outcome.prompts).toBe(1);
    // A damaged cache is no cache.
    writeFileSync(cachePath, "{");
    expect((await loadForkHistory({ env, projectRoot: root })).forks[0]?.outcome.prompts).toBe(1);
  });

  it("is empty without an index or a log", async () => {
    const empty = { CTX_HOME: join(root, "empty"), HOME: root };
    const report = await loadForkHistory({ env: empty, projectRoot: root });
    expect(report.forks).toEqual([]);
    expect(report.stats).toMatchObject({ searches: 0, successRate: null, forks: 0 });
  });
});
