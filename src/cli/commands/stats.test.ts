// `ctx stats`: the per-project and per-month counts, the duplicates and the last reindex, in-process on real
// transcripts (the fixture projects and the forks the real Claude Code made).
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { layOutClaudeDir } from "../../../tests/helpers/claude-projects.ts";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { IndexStatsReportSchema } from "../../core/search/index-stats-schema.ts";

const FORKS = join(import.meta.dirname, "../../../tests/fixtures/claude-forks/projects");
/** A project folder whose name would colour a terminal (Claude Code derives it from a path: any byte may be there). */
const HOSTILE = "-tmp-\u001b[31mred\u001b[0m-\u0007";

let root: string;
let claudeDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-stats-cli-"));
  claudeDir = layOutClaudeDir(root, { withLong: false });
  cpSync(FORKS, join(claudeDir, "projects"), { recursive: true });
  // The original fork fixture's transcript again, under a project whose name is hostile text.
  mkdirSync(join(claudeDir, "projects", HOSTILE));
  const [first] = readdirSync(join(FORKS, "-tmp-ctx-e2e-project"));
  cpSync(join(FORKS, "-tmp-ctx-e2e-project", first ?? ""), join(claudeDir, "projects", HOSTILE, first ?? ""));
  env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (argv: string[]) => runCliCaptured(argv, { cwd: root, env });

describe("ctx stats", () => {
  it("--json: every project and month, the duplicates found, the last reindex; matching its schema", async () => {
    expect((await run(["reindex", "--quiet"])).code).toBe(0);
    const report = IndexStatsReportSchema.parse(JSON.parse((await run(["stats", "--json"])).stdout));
    // 6 fixture sessions, 3 forks (one of them also in the hostile project: one session row, two folders).
    expect(report.sessions).toBe(9);
    expect(report.byProject.reduce((sum, entry) => sum + entry.sessions, 0)).toBe(9);
    expect(report.byProject.map((entry) => entry.project)).toContain("-tmp-ctx-e2e-project");
    expect(report.byMonth.map((entry) => entry.month)).toEqual([...report.byMonth.map((e) => e.month)].sort());
    expect(report.byMonth.find((entry) => entry.month === "2026-12")?.sessions).toBe(3);
    expect(report.duplicates).toEqual({ copies: 1, foldedInto: 1, sharedTranscripts: 1 });
    expect(report.rebuild).toMatchObject({ outcome: "done", sessions: 9, finishedAt: expect.any(Number) });
    expect(report.rebuild?.done).toBe(report.rebuild?.total);
  });

  it("text: the first --top projects and months, how many more, no terminal control from a project name", async () => {
    await run(["index", "--quiet"]);
    const text = (await run(["stats", "--top", "1"])).stdout;
    expect(text).toMatch(
      /duplicates\s+1 copy folded into 1 session\(s\); 1 transcript\(s\) in several project folders/,
    );
    expect(text).toMatch(/sessions by project\s*\n\s+\d+\s+\S.*\n\s+…\s+\d+ more/);
    expect(text).toMatch(/sessions by month\s*\n\s+2026-12\s+3\n\s+…\s+\d+ more/);
    expect([...text].filter((char) => char !== "\n" && (char < " " || char === "\u007f"))).toEqual([]);
    const all = (await run(["stats", "--top", "100"])).stdout;
    expect(all).not.toContain("more (the JSON lists all)");
  });

  it("reads the figures without reading the whole file; --check runs the integrity check and fails on a damaged one", async () => {
    await run(["index", "--quiet"]);
    const sound = IndexStatsReportSchema.parse(JSON.parse((await run(["stats", "--json"])).stdout));
    expect(sound.integrity).toBe("not checked");
    expect(IndexStatsReportSchema.parse(JSON.parse((await run(["stats", "--check", "--json"])).stdout))).toEqual({
      ...sound,
      integrity: "ok",
    });
    // One page in the middle of the file overwritten (the text of some chunks): the counts are still read …
    const dbPath = join(root, "ctx-home", "index.db");
    const handle = openSync(dbPath, "r+");
    // The page size is the file header's big-endian 16 bits at offset 16.
    const header = Buffer.alloc(18);
    readSync(handle, header, 0, 18, 0);
    const pageSize = header.readUInt16BE(16);
    const pages = Math.floor(statSync(dbPath).size / pageSize);
    writeSync(handle, Buffer.alloc(pageSize, 0xa5), 0, pageSize, Math.floor(pages / 2) * pageSize);
    closeSync(handle);
    const damaged = await run(["stats", "--json"]);
    expect(damaged.code).toBe(0);
    expect(JSON.parse(damaged.stdout)).toMatchObject({ sessions: sound.sessions, integrity: "not checked" });
    // … and --check finds the damage, the figures printed all the same.
    await expect(run(["stats", "--check"])).rejects.toMatchObject({ code: "INDEX_CORRUPT" });
  });

  it("refuses a --top that is not a whole number of at least 1", async () => {
    for (const top of ["0", "-1", "x", "1.5", "9".repeat(30)]) {
      await expect(run(["stats", "--top", top])).rejects.toMatchObject({ code: "USAGE" });
    }
  });

  it("a damaged reindex record reads as none; a running one whose process is gone reads as stopped", async () => {
    await run(["index", "--quiet"]);
    mkdirSync(join(root, "ctx-home"), { recursive: true });
    writeFileSync(join(root, "ctx-home", "reindex.json"), "{not json");
    expect(JSON.parse((await run(["stats", "--json"])).stdout).rebuild).toBeNull();
    const gone = { pid: 2 ** 22 + 12345, startedAt: 1, updatedAt: 2, finishedAt: null, outcome: "running" };
    writeFileSync(
      join(root, "ctx-home", "reindex.json"),
      JSON.stringify({ ...gone, done: 3, total: 9, sessions: null, error: null }),
    );
    expect(JSON.parse((await run(["stats", "--json"])).stdout).rebuild).toMatchObject({ outcome: "stopped", done: 3 });
    expect((await run(["stats"])).stdout).toMatch(
      /reindex\s+stopped: its process \(pid \d+\) ended after 3 of 9 files/,
    );
  });
});
