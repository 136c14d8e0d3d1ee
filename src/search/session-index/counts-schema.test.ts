import { appendFileSync, copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  FIXTURE,
  LONG_SESSION,
  layOutClaudeDir,
  SPOTTER_PROJECT,
  VIEWER_PROJECT,
} from "../../../tests/helpers/claude-projects.ts";
import { thrownCtxError } from "../../../tests/helpers/ctx-error.ts";
import { downgradeToSchema7 } from "../../../tests/helpers/schema-7-index.ts";
import { syncIndex } from "../sync/sync-index.ts";
import { mirrorAnnotations } from "./annotations.ts";
import { databaseOf } from "./database.ts";
import { readIndexCounts } from "./index-counts.ts";
import { readForkedSessions } from "./lineage.ts";
import { emptyIndex } from "./maintenance.ts";
import { SCHEMA_VERSION } from "./schema.ts";
import { openSessionIndex, type SessionIndex } from "./session-index.ts";
import { openVectorFillStore } from "./vector-fill.ts";
import { putVectors } from "./vectors.ts";

/** What the index says from its running counts. */
function counted(index: SessionIndex) {
  const { sessions, chunks, projects, vectors } = index.stats();
  const { byProject, byMonth, duplicates } = readIndexCounts(index);
  const families = databaseOf(index)
    .prepare("SELECT key AS root, n AS size FROM counts WHERE kind = 'family' AND n > 1 ORDER BY key")
    .all() as Array<{ root: string; size: number }>;
  return {
    sharedTranscripts: duplicates.sharedTranscripts,
    families: families.map(({ root, size }) => ({ root, size: Number(size) })),
    forks: readForkedSessions(index)
      .map((fork) => fork.id)
      .sort(),
    sessions,
    chunks,
    projects,
    vectors,
    sessionCount: index.sessionCount(),
    projectList: index.projects(),
    byProject: byProject.map(({ project, sessions: n }) => ({ project, sessions: n })).sort(byName),
    byMonth,
  };
}

/** The same figures counted from the tables themselves, as `ctx stats` counted them before the counts table. */
function recounted(index: SessionIndex) {
  const db = databaseOf(index);
  const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
  const hasVectors = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunk_vectors'").get() !== undefined;
  const projectList = (
    db.prepare("SELECT DISTINCT project FROM sessions ORDER BY project").all() as Array<{
      project: string;
    }>
  ).map((row) => row.project);
  const families = db
    .prepare(
      `SELECT root_uuid AS root, count(*) AS size FROM sessions WHERE root_uuid IS NOT NULL GROUP BY root_uuid
       HAVING count(*) > 1 ORDER BY root_uuid`,
    )
    .all() as Array<{ root: string; size: number }>;
  return {
    sharedTranscripts: count(
      `SELECT count(*) AS n FROM (SELECT session_id FROM files WHERE kind = 'main' GROUP BY session_id
       HAVING count(*) > 1)`,
    ),
    families: families.map(({ root, size }) => ({ root, size: Number(size) })),
    sessions: count("SELECT count(*) AS n FROM sessions"),
    chunks: count("SELECT count(*) AS n FROM chunks"),
    projects: projectList.length,
    vectors: hasVectors ? count("SELECT count(*) AS n FROM chunk_vectors") : 0,
    sessionCount: count("SELECT count(*) AS n FROM sessions"),
    projectList,
    byProject: (
      db.prepare("SELECT project, count(*) AS sessions FROM sessions GROUP BY project").all() as Array<{
        project: string;
        sessions: number;
      }>
    )
      .map((row) => ({ project: row.project, sessions: Number(row.sessions) }))
      .sort(byName),
    byMonth: (
      db
        .prepare(
          `SELECT strftime('%Y-%m', created_at / 1000, 'unixepoch') AS month, count(*) AS sessions FROM sessions
           WHERE created_at IS NOT NULL GROUP BY month ORDER BY month`,
        )
        .all() as Array<{ month: string; sessions: number }>
    ).map((row) => ({ month: row.month, sessions: Number(row.sessions) })),
  };
}

const byName = (a: { project: string }, b: { project: string }) => a.project.localeCompare(b.project);

/** The counts equal the tables' (the forks are read through the families, compared as such). */
function expectCountsTrue(index: SessionIndex): ReturnType<typeof counted> {
  const figures = counted(index);
  const { forks: _forks, ...compared } = figures;
  expect(compared).toEqual(recounted(index));
  return figures;
}

/** The real Claude Code's forks of one session (tests/fixtures/claude-forks): a family of four. */
const FORKS = join(import.meta.dirname, "../../../tests/fixtures/claude-forks/projects");

function setUp() {
  const root = mkdtempSync(join(tmpdir(), "ctx-counts-"));
  const claudeDir = layOutClaudeDir(root);
  cpSync(FORKS, join(claudeDir, "projects"), { recursive: true });
  return { root, claudeDir, dbPath: join(root, "index.db"), spotter: join(claudeDir, "projects", SPOTTER_PROJECT) };
}

describe("the index's running counts", () => {
  it("equal the tables' own counts after ingest, growth, replacement, deletes and a rebuild", async () => {
    const { claudeDir, dbPath, spotter } = setUp();
    await syncIndex({ claudeDir, dbPath });
    const index = openSessionIndex(dbPath);
    try {
      const first = expectCountsTrue(index);
      // The fixtures and the real Claude Code's forks (one family, its forks found).
      expect(first).toMatchObject({ sessions: 10, projects: 3, sharedTranscripts: 0 });
      expect(first.families).toHaveLength(1);
      expect(first.forks.length).toBeGreaterThan(0);
      expect(first.chunks).toBeGreaterThan(10);
      expect(first.byMonth.length).toBeGreaterThan(0);

      // A transcript grows (its last chunks re-cut), another is replaced by a shorter one (re-read from the start).
      const longChunks = index.chunkCount(LONG_SESSION);
      appendFileSync(join(spotter, "short.jsonl"), readFileSync(FIXTURE.toolHeavy));
      const long = join(spotter, `${LONG_SESSION}.jsonl`);
      writeFileSync(long, `${readFileSync(long, "utf8").split("\n").slice(0, 300).join("\n")}\n`);
      await syncIndex({ claudeDir, dbPath });
      expectCountsTrue(index);
      expect(index.chunkCount(LONG_SESSION)).toBeLessThan(longChunks);

      // The same sessions again: nothing moves. Then one transcript in a second project folder too.
      await syncIndex({ claudeDir, dbPath });
      expectCountsTrue(index);
      copyFileSync(join(spotter, "short.jsonl"), join(claudeDir, "projects", VIEWER_PROJECT, "short.jsonl"));
      await syncIndex({ claudeDir, dbPath });
      expect(expectCountsTrue(index).sharedTranscripts).toBe(1);

      // A library note is a chunk of its session: written, then removed.
      const withoutNote = counted(index).chunks;
      const note = { starred: true, labels: ["x"], note: "a note about flaky retries", updatedAt: 1 };
      mirrorAnnotations(index, { [LONG_SESSION]: note });
      expect(expectCountsTrue(index).chunks).toBe(withoutNote + 1);
      mirrorAnnotations(index, {});
      expect(expectCountsTrue(index).chunks).toBe(withoutNote);

      // Rows moved or removed by any writer: a session's project and first time changed, a session deleted whole.
      const db = databaseOf(index);
      const [family] = first.families;
      const forked = first.forks[0] ?? "";
      index.writeTransaction(() => {
        db.prepare("UPDATE sessions SET project = 'elsewhere', created_at = 0 WHERE id = ?").run(LONG_SESSION);
        // A file's row goes after its chunks (they reference it).
        const copy = "SELECT id FROM files WHERE session_id = 'short' AND path LIKE ?";
        db.prepare(`DELETE FROM chunks WHERE file_id IN (${copy})`).run(`%${VIEWER_PROJECT}%`);
        db.prepare(`DELETE FROM files WHERE id IN (${copy})`).run(`%${VIEWER_PROJECT}%`);
        db.prepare("UPDATE sessions SET root_uuid = NULL WHERE id = ?").run(forked);
        db.prepare("UPDATE sessions SET created_at = NULL WHERE id = 'short'").run();
        db.prepare("DELETE FROM chunks WHERE session_id = 'subagent'").run();
        db.prepare("DELETE FROM files WHERE session_id = 'subagent'").run();
        db.prepare("DELETE FROM sessions WHERE id = 'subagent'").run();
      });
      const moved = expectCountsTrue(index);
      expect(moved).toMatchObject({ sessions: 9, projects: 4, sharedTranscripts: 0 });
      expect(moved.families).toEqual([{ root: family?.root, size: (family?.size ?? 0) - 1 }]);
      expect(moved.byMonth[0]).toEqual({ month: "1970-01", sessions: 1 });

      // `ctx reindex`: emptied, then built again.
      emptyIndex(index);
      expect(expectCountsTrue(index)).toMatchObject({
        sessions: 0,
        chunks: 0,
        projects: 0,
        projectList: [],
        families: [],
      });
      await syncIndex({ claudeDir, dbPath });
      expect(expectCountsTrue(index)).toMatchObject({ sessions: 10, sharedTranscripts: 1, families: first.families });
    } finally {
      index.close();
    }
  });

  it("count vectors as the fill writes, replaces and (with their chunks) deletes them", async () => {
    const { claudeDir, dbPath, spotter } = setUp();
    await syncIndex({ claudeDir, dbPath });
    const fill = openVectorFillStore(dbPath);
    const index = openSessionIndex(dbPath);
    try {
      expect(expectCountsTrue(index).vectors).toBe(0);
      const missing = fill.missing("m", 1_000);
      const rows = missing.map(({ chunkId }) => ({ chunkId, vector: new Float32Array([1, 0]) }));
      expect(fill.put("m", rows)).toBe(rows.length);
      expect(expectCountsTrue(index).vectors).toBe(rows.length);
      // Written again (INSERT OR REPLACE): still one vector per chunk.
      putVectors(databaseOf(index), "m", rows.slice(0, 3));
      expect(expectCountsTrue(index).vectors).toBe(rows.length);
      // A re-read transcript's chunks go, and their vectors with them.
      writeFileSync(join(spotter, "short.jsonl"), "");
      copyFileSync(FIXTURE.subagent, join(spotter, "short.jsonl"));
      await syncIndex({ claudeDir, dbPath });
      expect(expectCountsTrue(index).vectors).toBeLessThan(rows.length);
    } finally {
      fill.close();
      index.close();
    }
  });

  it("are taken from the tables when an index of schema 6 is opened, which is kept, not rebuilt", async () => {
    const { claudeDir, dbPath } = setUp();
    await syncIndex({ claudeDir, dbPath });
    const before = openSessionIndex(dbPath);
    const expected = counted(before);
    // Back to schema 6 as it was: 7's files and chunks, no counts table or triggers, the two narrower indexes.
    downgradeToSchema7(databaseOf(before));
    const triggers = databaseOf(before)
      .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'counts_%'")
      .all() as Array<{ name: string }>;
    expect(triggers.length).toBeGreaterThan(5);
    for (const { name } of triggers) databaseOf(before).exec(`DROP TRIGGER ${name}`);
    databaseOf(before).exec(`DROP TABLE counts;
      DROP INDEX sessions_project; CREATE INDEX sessions_project ON sessions(project);
      DROP INDEX files_session; CREATE INDEX files_session ON files(session_id);
      UPDATE meta SET value = '6' WHERE key = 'schema_version'`);
    before.close();
    // A reader cannot move it: it says what does.
    expect(thrownCtxError(() => openSessionIndex(dbPath, { readonly: true }))).toMatchObject({
      code: "STATE_UNSUPPORTED_VERSION",
      hint: expect.stringContaining("in place"),
    });
    const index = openSessionIndex(dbPath);
    try {
      expect(index.rebuiltFrom).toBeNull();
      expect(expectCountsTrue(index)).toEqual(expected);
      const version = databaseOf(index).prepare("SELECT value FROM meta WHERE key = 'schema_version'").get();
      expect(version).toEqual({ value: String(SCHEMA_VERSION) });
      // And kept from then on.
      rmSync(join(claudeDir, "projects", SPOTTER_PROJECT, "short.jsonl"));
      await syncIndex({ claudeDir, dbPath });
      expectCountsTrue(index);
    } finally {
      index.close();
    }
  });
});
