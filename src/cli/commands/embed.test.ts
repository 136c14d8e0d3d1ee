import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { missingEmbedderPackages } from "../../../tests/helpers/embedder-packages.ts";
import { writeTinyEmbeddingModel } from "../../../tests/helpers/tiny-embedding-model.ts";
import { silentLogger } from "../../log.ts";
import { countVectors } from "../../search/session-index/vectors.ts";
import { runCli } from "../program.ts";

/** A CTX_HOME holding an index with three chunks and the generated nomic-layout model under models/. */
function home() {
  const base = mkdtempSync(join(tmpdir(), "ctx-embed-cli-"));
  const ctxHome = join(base, "ctx-home");
  writeTinyEmbeddingModel(join(ctxHome, "models"), "nomic-ai/nomic-embed-text-v1.5", { dimensions: 8 });
  const db = new DatabaseSync(join(ctxHome, "index.db"));
  db.exec(`CREATE TABLE sessions(id TEXT PRIMARY KEY, project TEXT, updated_at INTEGER, tags TEXT);
    CREATE TABLE chunks(id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, chunk_index INTEGER, text TEXT, memory_type TEXT);
    INSERT INTO sessions VALUES ('s', '-p', 1, '[]');
    INSERT INTO chunks(session_id, chunk_index, text) VALUES ('s', 0, 'fix the bug'), ('s', 1, 'sqlite index'), ('s', 2, 'fork');`);
  db.close();
  return { cwd: base, ctxHome };
}

// The real transformers.js and onnxruntime, from the test cache (tests/helpers/embedder-packages.ts).
const noPackages = missingEmbedderPackages() !== null;

describe("ctx embed", () => {
  it.skipIf(noPackages)(
    "fills every missing vector with the configured embedder and prints a JSON summary",
    async () => {
      const { cwd, ctxHome } = home();
      const env = { CTX_HOME: ctxHome, HOME: cwd, CTX_EMBEDDER__PROVIDER: "nomic" };
      const run = await runCliCaptured(["embed", "--json"], { cwd, env });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        embedded: 3,
        remaining: 0,
        model: "nomic:nomic-ai/nomic-embed-text-v1.5",
        interrupted: false,
      });
      const db = new DatabaseSync(join(ctxHome, "index.db"));
      expect(countVectors(db, "nomic:nomic-ai/nomic-embed-text-v1.5")).toBe(3);
      db.close();
      const again = await runCliCaptured(["embed"], { cwd, env });
      expect(again.stdout).toMatch(/embedded\s+0/);
    },
  );

  it("explains how to configure an embedder when none is", async () => {
    const { cwd, ctxHome } = home();
    const error = await rejectedCtxError(runCliCaptured(["embed"], { cwd, env: { CTX_HOME: ctxHome, HOME: cwd } }));
    expect(error.code).toBe("EMBEDDER_UNAVAILABLE");
    expect(error.hint).toContain("ctx config set embedder.provider ollama");
    expect(error.hint).toContain("ctx embed --setup");
  });

  it.skipIf(noPackages)("stops cleanly on Ctrl-C and the next run continues", async () => {
    const { cwd, ctxHome } = home();
    const env = { CTX_HOME: ctxHome, HOME: cwd, CTX_EMBEDDER__PROVIDER: "nomic", CTX_EMBEDDER__BATCH_SIZE: "1" };
    let stdout = "";
    let released = false;
    const code = await runCli(["embed", "--json"], {
      cwd,
      env,
      stdin: Readable.from([]),
      out: (text) => {
        stdout += text;
      },
      err: () => {},
      logger: silentLogger,
      // Ctrl-C pressed at once: the fill stops before its first batch.
      onInterrupt: (handler) => {
        handler();
        return () => {
          released = true;
        };
      },
      setExitCode: () => {},
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ embedded: 0, remaining: 3, interrupted: true });
    expect(released).toBe(true);
    const resumed = await runCliCaptured(["embed", "--json"], { cwd, env });
    expect(JSON.parse(resumed.stdout)).toMatchObject({ embedded: 3, remaining: 0 });
  });
});
