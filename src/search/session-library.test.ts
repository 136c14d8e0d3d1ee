import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { beforeEach, describe, expect, it } from "vitest";
import { layOutClaudeDir, VIEWER_SESSIONS } from "../../tests/helpers/claude-projects.ts";
import { defaultConfig } from "../config/defaults.ts";
import { changeAnnotation, readLibrary } from "../store/library/library-state.ts";
import { resolveIndexPath } from "./paths.ts";
import { searchSessions } from "./search-sessions.ts";
import { readMirroredLabels } from "./session-index/annotations.ts";
import { databaseOf } from "./session-index/database.ts";
import { emptyIndex } from "./session-index/maintenance.ts";
import { openSessionIndex } from "./session-index/session-index.ts";
import { readSessionChunks } from "./session-index/stored-rows.ts";
import { adoptAnnotation, annotationsOf, listLibrary, updateLibrary } from "./session-library.ts";
import { syncIndex } from "./sync/sync-index.ts";

const search = defaultConfig().search;
const [INIT, OTHER] = VIEWER_SESSIONS;
let env: NodeJS.ProcessEnv;
let claudeDir: string;
let dbPath: string;
let clock = 1_000;
const tick = () => {
  clock += 1_000;
  return new Date(clock);
};
const deps = () => ({ env, now: tick });
const sync = (full = false) => syncIndex({ claudeDir, dbPath, libraryEnv: env, full, thread: false });
const find = async (query: string, filters = {}) => {
  const index = openSessionIndex(dbPath, { readonly: true });
  try {
    return (await searchSessions(index, query, { search, filters, limit: 10 })).map((r) => r.session);
  } finally {
    index.close();
  }
};

beforeEach(async () => {
  const root = mkdtempSync(join(tmpdir(), "ctx-library-flow-"));
  env = { CTX_HOME: join(root, "home") };
  claudeDir = layOutClaudeDir(root, { withLong: false });
  dbPath = resolveIndexPath(env);
  await sync();
  return () => rmSync(root, { recursive: true, force: true });
});

describe("the session library on a real index", () => {
  it("names a session by a unique prefix, stores the change and mirrors it for search at once", async () => {
    await updateLibrary(deps(), INIT.slice(0, 8), { op: "star" });
    const tagged = await updateLibrary(deps(), INIT.slice(0, 8), { op: "tag", tags: ["Auth", "db"] });
    expect(tagged.sessionId).toBe(INIT);
    expect(tagged.annotation).toEqual({ starred: true, labels: ["auth", "db"], note: null });
    const starred = await find("CLAUDE.md", { starred: true, labels: ["auth"] });
    expect(starred.map((s) => s.id)).toEqual([INIT]);
    expect(starred[0]?.annotation).toEqual({ starred: true, labels: ["auth", "db"], note: null });
    expect(await find("CLAUDE.md", { labels: ["nope"] })).toEqual([]);
    expect((await find("CLAUDE.md")).length).toBeGreaterThan(1);
  });

  it("makes a note's words the session's words, and a changed note forgets the old ones", async () => {
    expect(await find("zanzibarquux")).toEqual([]);
    await updateLibrary(deps(), OTHER, { op: "note", note: "the zanzibarquux retry fix lives here" });
    expect((await find("zanzibarquux")).map((s) => s.id)).toEqual([OTHER]);
    await updateLibrary(deps(), OTHER, { op: "note", note: "moved on to plumbusflange" });
    expect(await find("zanzibarquux")).toEqual([]);
    expect((await find("plumbusflange")).map((s) => s.id)).toEqual([OTHER]);
    const index = openSessionIndex(dbPath, { readonly: true });
    expect(readSessionChunks(index, OTHER).every((chunk) => !chunk.text.includes("plumbusflange"))).toBe(true);
    index.close();
    await updateLibrary(deps(), OTHER, { op: "note", note: null });
    expect(await find("plumbusflange")).toEqual([]);
    expect(await readLibrary(env)).toEqual({});
  });

  it("keeps every annotation across a reindex and a deleted index", async () => {
    await updateLibrary(deps(), INIT, { op: "tag", tags: ["keep"] });
    await updateLibrary(deps(), OTHER, { op: "note", note: "wobblegong" });
    const index = openSessionIndex(dbPath);
    emptyIndex(index);
    index.close();
    await sync(true);
    expect((await find("CLAUDE.md", { labels: ["keep"] })).map((s) => s.id)).toEqual([INIT]);
    expect((await find("wobblegong")).map((s) => s.id)).toEqual([OTHER]);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
    const summary = await sync();
    expect(summary.annotations).toEqual({ written: 2, removed: 0 });
    expect((await find("wobblegong")).map((s) => s.id)).toEqual([OTHER]);
    expect((await sync()).annotations).toEqual({ written: 0, removed: 0 });
  });

  it("refuses an unknown, ambiguous or hostile request and writes nothing", async () => {
    await expect(updateLibrary(deps(), "ffffffff", { op: "star" })).rejects.toThrow(/no indexed session/);
    await expect(updateLibrary(deps(), "5", { op: "star" })).rejects.toThrow(/at least 4 characters/);
    await updateLibrary(deps(), INIT, { op: "tag", tags: ["a"] });
    await expect(updateLibrary(deps(), "1af7", { op: "tag", tags: ["x\u001b[2J"] })).rejects.toThrow(
      /control character/,
    );
    // A library-only id sharing the prefix makes "1af7" name two sessions.
    await changeAnnotation(env, "1af7aaaa-0000-4000-8000-000000000000", () => ({
      starred: true,
      labels: [],
      note: null,
    }));
    await expect(updateLibrary(deps(), "1af7", { op: "star" })).rejects.toThrow(/start of several sessions' ids/);
    await changeAnnotation(env, "1af7aaaa-0000-4000-8000-000000000000", () => ({
      starred: false,
      labels: [],
      note: null,
    }));
    await expect(updateLibrary(deps(), INIT, { op: "note", note: "x".repeat(1_000_000) })).rejects.toThrow(/4096/);
    expect(await readLibrary(env)).toEqual({ [INIT]: expect.objectContaining({ labels: ["a"], note: null }) });
    const index = openSessionIndex(dbPath, { readonly: true });
    expect(readMirroredLabels(index, INIT)).toEqual(["a"]);
    index.close();
  });

  it("an index made by another version of ctx is not dropped: the person is told to run ctx index, nothing written", async () => {
    const index = openSessionIndex(dbPath);
    databaseOf(index).prepare("UPDATE meta SET value = '5' WHERE key = 'schema_version'").run();
    index.close();
    await expect(updateLibrary(deps(), INIT, { op: "star" })).rejects.toThrow(/has format 5/);
    expect(await readLibrary(env)).toEqual({});
    const raw = new DatabaseSync(dbPath, { readOnly: true });
    expect(Number((raw.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n)).toBeGreaterThan(0);
    raw.close();
  });

  it("accepts the asking session by its full id before it is indexed, and lists what is annotated", async () => {
    const current = "12345678-1234-4234-8234-123456789abc";
    await updateLibrary({ ...deps(), currentSessionId: current }, current, { op: "star" });
    await updateLibrary(deps(), INIT, { op: "tag", tags: ["auth"] });
    const all = await listLibrary(deps(), {});
    expect(all.sessions.map((s) => [s.sessionId, s.indexed])).toEqual([
      [INIT, true],
      [current, false],
    ]);
    expect(all.sessions[0]?.title).not.toBeNull();
    expect((await listLibrary(deps(), { starred: true })).sessions.map((s) => s.sessionId)).toEqual([current]);
    expect((await listLibrary(deps(), { labels: ["AUTH"] })).labels).toEqual([{ label: "auth", sessions: 1 }]);
  });
});

describe("a bundle's annotations adopted by ctx import", () => {
  it("joins labels, keeps the person's star and note, and drops what the library's rules refuse", async () => {
    await updateLibrary(deps(), INIT, { op: "note", note: "mine" });
    const dropped = await adoptAnnotation(deps(), INIT, {
      starred: true,
      labels: ["Handoff", "\u001b[2Jx", "two words"],
      note: "theirs",
    });
    expect(dropped).toEqual(['tag "\\u001b[2Jx"', 'tag "two words"']);
    expect(await annotationsOf(env, [INIT, OTHER])).toEqual(
      new Map([[INIT, { starred: true, labels: ["handoff"], note: "mine" }]]),
    );
    const fresh = await adoptAnnotation(deps(), OTHER, {
      starred: false,
      labels: [],
      note: "fixed with key AKIAIOSFODNN7EXAMPLE in staging",
    });
    expect(fresh).toEqual([]);
    expect((await readLibrary(env))[OTHER]?.note).not.toContain("AKIAIOSFODNN7EXAMPLE");
  });
});
