// `ctx index`, `ctx stats`, `ctx reindex` and doctor's index check, in-process against the fixture transcripts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { layOutClaudeDir } from "../../../tests/helpers/claude-projects.ts";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { silentLogger } from "../../log.ts";
import { unpackChunkText } from "../../search/session-index/chunk-text.ts";
import { READ_VERSION, SCHEMA_VERSION } from "../../search/session-index/schema.ts";
import type { CliContext } from "../command-io.ts";
import { runCli } from "../program.ts";

let root: string;
let claudeDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-index-cli-"));
  claudeDir = layOutClaudeDir(root, { withLong: false });
  env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (argv: string[]) => runCliCaptured(argv, { cwd: root, env });

describe("ctx index / stats / reindex", () => {
  it("index --json prints the sync summary; a second run reads nothing; stats --json counts it", async () => {
    const first = await run(["index", "--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ sessionsTotal: 6, filesIngested: 6, interrupted: false });
    const second = await run(["index", "--json"]);
    expect(JSON.parse(second.stdout)).toMatchObject({ filesIngested: 0, filesSkippedUnchanged: 6 });
    const stats = await run(["stats", "--json"]);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      path: join(root, "ctx-home", "index.db"),
      exists: true,
      sessions: 6,
      projects: 2,
      vectors: 0,
    });
  });

  it("human output: a one-line summary on stdout, no progress bar off a terminal; stats as rows", async () => {
    const result = await run(["index", "--claude-dir", claudeDir]);
    expect(result.stdout).toMatch(
      /^6 session\(s\) indexed: 6 file\(s\) read, 0 unchanged; \d+ new message\(s\), \d+ new chunk\(s\) in [\d.]+ s\n$/,
    );
    expect(result.stderr).toBe("");
    expect((await run(["stats"])).stdout).toMatch(/sessions\s+6\n/);
    expect((await run(["index", "--quiet"])).stdout).toBe("");
  });

  it("stats before any index says how to build one", async () => {
    const result = await run(["stats"]);
    expect(result.stdout).toMatch(/No session index yet .*ctx index/);
    expect(JSON.parse((await run(["stats", "--json"])).stdout)).toMatchObject({ exists: false, sessions: 0 });
  });

  it("a damaged index: stats fails with the reindex hint, doctor fails the check, reindex rebuilds it", async () => {
    await run(["index", "--quiet"]);
    const dbPath = join(root, "ctx-home", "index.db");
    writeFileSync(dbPath, Buffer.alloc(8192, 0x41));
    await expect(run(["stats"])).rejects.toMatchObject({ code: "INDEX_CORRUPT", hint: "run `ctx reindex`" });
    const doctor = await runCliCaptured(["doctor", "--json"], { cwd: root, env });
    const finding = JSON.parse(doctor.stdout).findings.find((f: { id: string }) => f.id === "session-index");
    expect(finding).toMatchObject({ status: "fail", fix: "ctx reindex" });

    const rebuilt = await run(["reindex", "--json"]);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ sessionsTotal: 6, filesIngested: 6 });
    const after = await runCliCaptured(["doctor", "--json"], { cwd: root, env });
    expect(JSON.parse(after.stdout).findings.find((f: { id: string }) => f.id === "session-index")).toMatchObject({
      status: "ok",
      message: expect.stringContaining("6 session(s)"),
    });
  });

  it("reindex on a healthy index empties it in place and builds it again", async () => {
    await run(["index", "--quiet"]);
    const before = JSON.parse((await run(["stats", "--json"])).stdout);
    const rebuilt = JSON.parse((await run(["reindex", "--json"])).stdout);
    expect(rebuilt).toMatchObject({ filesIngested: 6, filesSkippedUnchanged: 0 });
    expect(JSON.parse((await run(["stats", "--json"])).stdout)).toMatchObject({
      sessions: before.sessions,
      chunks: before.chunks,
    });
  });

  it("an index of the previous format: stats says to run ctx index, doctor warns, ctx index rebuilds it", async () => {
    await run(["index", "--quiet"]);
    const dbPath = join(root, "ctx-home", "index.db");
    const chunksOf = () => {
      const db = new DatabaseSync(dbPath, { readOnly: true });
      const rows = db
        .prepare(
          `SELECT f.path AS source, c.chunk_index, c.text FROM chunks c JOIN files f ON f.id = c.file_id
           ORDER BY f.path, c.chunk_index`,
        )
        .all() as Array<{
        source: string;
        chunk_index: number;
        text: unknown;
      }>;
      db.close();
      return rows.map((row) => ({ ...row, text: unpackChunkText(row.text) }));
    };
    const built = chunksOf();
    expect(built.length).toBeGreaterThan(0);
    // Format 4 stored every chunk's text plain: make this index one.
    const db = new DatabaseSync(dbPath);
    const update = db.prepare(
      "UPDATE chunks SET text = ? WHERE file_id = (SELECT id FROM files WHERE path = ?) AND chunk_index = ?",
    );
    for (const row of built) update.run(row.text, row.source, row.chunk_index);
    db.exec("UPDATE meta SET value = '4' WHERE key = 'schema_version'");
    db.close();

    await expect(run(["stats"])).rejects.toMatchObject({
      code: "STATE_UNSUPPORTED_VERSION",
      message: expect.stringContaining("format 4"),
      hint: expect.stringContaining("ctx index"),
    });
    const doctor = await runCliCaptured(["doctor", "--json"], { cwd: root, env });
    const finding = JSON.parse(doctor.stdout).findings.find((f: { id: string }) => f.id === "session-index");
    expect(finding).toMatchObject({ status: "warn", fix: "ctx index" });

    const rebuilt = await run(["index", "--json"]);
    expect(rebuilt.stderr).toContain(
      `the session index was made by another version of ctx (format 4, this ctx uses ${SCHEMA_VERSION})`,
    );
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ rebuiltFromFormat: 4, filesIngested: 6, sessionsTotal: 6 });
    expect(chunksOf()).toEqual(built);
    expect(JSON.parse((await run(["index", "--json"])).stdout)).toMatchObject({ rebuiltFromFormat: null });
  });

  it("an index read by older rules is read again by the next `ctx index`, which says so, once", async () => {
    await run(["index", "--quiet"]);
    const dbPath = join(root, "ctx-home", "index.db");
    const db = new DatabaseSync(dbPath);
    db.exec("DELETE FROM meta WHERE key = 'read_version'");
    db.close();

    const reread = await run(["index", "--json"]);
    expect(reread.stderr).toContain(`this ctx reads transcripts by newer rules (0 -> ${READ_VERSION})`);
    expect(JSON.parse(reread.stdout)).toMatchObject({ rereadFromVersion: 0, filesIngested: 6, sessionsTotal: 6 });
    // Said to a person, the messages read again are not called new; nor are those of --full.
    const again = /; \d+ message\(s\) and \d+ chunk\(s\) read again in [\d.]+ s\n$/;
    expect((await run(["index", "--full"])).stdout).toMatch(again);
    const db2 = new DatabaseSync(dbPath);
    db2.exec("DELETE FROM meta WHERE key = 'read_version'");
    db2.close();
    expect((await run(["index"])).stdout).toMatch(again);
    const quiet = await run(["index", "--quiet"]);
    expect(quiet.stderr).toBe("");
    expect(JSON.parse((await run(["index", "--json"])).stdout)).toMatchObject({
      rereadFromVersion: null,
      filesIngested: 0,
    });
  });

  it("Ctrl-C stops between files: exit 130 and the resume hint", async () => {
    let stdout = "";
    let stderr = "";
    let exitCode = 0;
    let released = false;
    const ctx: CliContext = {
      cwd: root,
      env,
      stdin: Readable.from([]),
      out: (text) => (stdout += text),
      err: (text) => (stderr += text),
      logger: silentLogger,
      setExitCode: (code) => (exitCode = code),
      onInterrupt: (handler) => {
        handler();
        return () => (released = true);
      },
    };
    const code = await runCli(["index"], ctx);
    expect(code === 130 || exitCode === 130).toBe(true);
    expect(stderr).toContain("interrupted — run `ctx index` again to resume");
    expect(stdout).toMatch(/0 file\(s\) read/);
    expect(released).toBe(true);
    expect(JSON.parse((await run(["index", "--json"])).stdout)).toMatchObject({ filesIngested: 6 });
  });
});
