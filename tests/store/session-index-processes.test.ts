// Two processes syncing one session index at once (`ctx index` while the server's watcher syncs): both finish,
// no file is ingested twice, and the index ends as one sync would leave it.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { databaseOf } from "../../src/search/session-index/database.ts";
import { openSessionIndex } from "../../src/search/session-index/session-index.ts";
import { readStoredText } from "../../src/search/session-index/text-dictionary.ts";
import { syncIndex } from "../../src/search/sync/sync-index.ts";
import { layOutClaudeDir } from "../helpers/claude-projects.ts";

const CHILD = join(import.meta.dirname, "sync-child.ts");

function runChild(claudeDir: string, dbPath: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, claudeDir, dbPath], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The chunks with their text as read (the stored bytes depend on when the index made its text dictionary). */
function chunkRows(dbPath: string): unknown[] {
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    const db = databaseOf(index);
    const rows = db
      .prepare(
        `SELECT c.session_id, f.path AS source, c.chunk_index, c.text FROM chunks c JOIN files f ON f.id = c.file_id
         ORDER BY f.path, c.chunk_index`,
      )
      .all();
    return rows.map((row) => ({ ...row, text: readStoredText(db, row.text) }));
  } finally {
    index.close();
  }
}

describe("session index across processes", () => {
  it("two concurrent syncs both succeed and ingest each file once", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-index-procs-"));
    const claudeDir = layOutClaudeDir(root);
    const dbPath = join(root, "home", "index.db");
    const [a, b] = await Promise.all([runChild(claudeDir, dbPath), runChild(claudeDir, dbPath)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const ingested = JSON.parse(a.stdout).filesIngested + JSON.parse(b.stdout).filesIngested;
    expect(ingested).toBe(8);
    const reference = join(root, "reference.db");
    await syncIndex({ claudeDir, dbPath: reference });
    expect(chunkRows(dbPath)).toEqual(chunkRows(reference));
  });
});
