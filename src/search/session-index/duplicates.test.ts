// Duplicates found at index time on forks the real Claude Code made (tests/fixtures/claude-forks/README.md), and shown
// once by search.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/defaults.ts";
import { searchSessions } from "../search-sessions.ts";
import { syncIndex } from "../sync/sync-index.ts";
import { databaseOf } from "./database.ts";
import { readCanonicals, readCopies } from "./duplicates.ts";
import { openSessionIndex } from "./session-index.ts";

const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures/claude-forks");
const PROJECT = "-tmp-ctx-e2e-project";
const ORIGINAL = "666429a8-b8f3-4dbd-9bd3-3605cc7db959";
const WENT_ON = "29b50463-d589-4529-9db6-483b3af8b5e0";
const COPY = "90399198-1b07-49e8-b97e-a861c031eeaf";
const search = defaultConfig().search;
const NOW = Date.UTC(2026, 11, 3);

function layOut(): { claudeDir: string; dbPath: string } {
  const root = mkdtempSync(join(tmpdir(), "ctx-dupes-"));
  const claudeDir = join(root, "claude");
  cpSync(FIXTURES, claudeDir, { recursive: true });
  return { claudeDir, dbPath: join(root, "index.db") };
}

const transcript = (claudeDir: string, id: string, project = PROJECT) =>
  join(claudeDir, "projects", project, `${id}.jsonl`);

/** A prompt and a reply of the session's own, as Claude Code appends them (fresh uuids, no requestSessionId). */
function appendOwnExchange(path: string, sessionId: string, word: string): void {
  const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
  const lastUuid = (JSON.parse(lines.at(-1) ?? "{}") as { uuid?: string }).uuid ?? null;
  const base = { isSidechain: false, userType: "external", cwd: "/tmp/p", sessionId, version: "2.1.330" };
  const prompt = {
    ...base,
    parentUuid: lastUuid,
    type: "user",
    uuid: `${word}-prompt-0000-0000-000000000000`,
    timestamp: "2026-12-02T05:00:00.000Z",
    message: { role: "user", content: `${word} please` },
  };
  const reply = {
    ...base,
    parentUuid: prompt.uuid,
    type: "assistant",
    uuid: `${word}-reply-0000-0000-000000000000`,
    timestamp: "2026-12-02T05:00:01.000Z",
    message: {
      id: `msg_${word}`,
      role: "assistant",
      model: "claude",
      content: [{ type: "text", text: `${word} done` }],
    },
  };
  appendFileSync(path, `${JSON.stringify(prompt)}\n${JSON.stringify(reply)}\n`);
}

describe("duplicates at index time (real Claude Code forks)", () => {
  it("a fork that only ran a local command folds into its original; a fork that went on stays its own", async () => {
    const { claudeDir, dbPath } = layOut();
    await syncIndex({ claudeDir, dbPath });
    const index = openSessionIndex(dbPath);
    try {
      const replies = databaseOf(index).prepare("SELECT id, replies, own_replies FROM sessions ORDER BY id").all();
      expect(replies).toEqual([
        { id: WENT_ON, replies: 3, own_replies: 1 },
        { id: ORIGINAL, replies: 2, own_replies: 2 },
        { id: COPY, replies: 2, own_replies: 0 },
      ]);
      expect(readCanonicals(index, [ORIGINAL, WENT_ON, COPY])).toEqual(new Map([[COPY, ORIGINAL]]));
      expect(readCopies(index, [ORIGINAL, WENT_ON])).toEqual(
        new Map([[ORIGINAL, [{ sessionId: COPY, project: PROJECT }]]]),
      );

      const results = await searchSessions(index, "quarkolith parser", { search, now: NOW });
      const ids = results.map((result) => result.session.id);
      expect(ids).toContain(ORIGINAL);
      expect(ids).toContain(WENT_ON);
      expect(ids).not.toContain(COPY);
      expect(results.find((result) => result.session.id === ORIGINAL)?.alsoIn).toEqual([
        { sessionId: COPY, project: PROJECT },
      ]);
      expect(results.find((result) => result.session.id === WENT_ON)?.alsoIn).toBeUndefined();
    } finally {
      index.close();
    }
  });

  it("is judged again when either side grows", async () => {
    const { claudeDir, dbPath } = layOut();
    await syncIndex({ claudeDir, dbPath });
    // The original goes on: the copy still adds nothing, and the original (more replies) stays canonical.
    appendOwnExchange(transcript(claudeDir, ORIGINAL), ORIGINAL, "zyxwarble");
    await syncIndex({ claudeDir, dbPath });
    let index = openSessionIndex(dbPath);
    expect(readCanonicals(index, [COPY])).toEqual(new Map([[COPY, ORIGINAL]]));
    index.close();
    // The copy goes on with a reply of its own: a real fork now, its own result.
    appendOwnExchange(transcript(claudeDir, COPY), COPY, "vexorbit");
    await syncIndex({ claudeDir, dbPath });
    index = openSessionIndex(dbPath);
    try {
      expect(readCanonicals(index, [COPY])).toEqual(new Map());
      expect(readCopies(index, [ORIGINAL])).toEqual(new Map());
      const ids = (await searchSessions(index, "quarkolith parser", { search, now: NOW })).map((r) => r.session.id);
      expect(ids).toContain(COPY);
    } finally {
      index.close();
    }
  });

  it("a copy whose only hits are its own still shows, as its canonical", async () => {
    const { claudeDir, dbPath } = layOut();
    await syncIndex({ claudeDir, dbPath });
    const index = openSessionIndex(dbPath);
    try {
      // "/cost" is only in the copy (the tolerance: a local command, no reply): its hit counts for the original.
      const results = await searchSessions(index, "usage", { search, now: NOW, limit: 10 });
      expect(results.map((result) => result.session.id)).not.toContain(COPY);
      const original = results.find((result) => result.session.id === ORIGINAL);
      expect(original?.bestChunk.sessionId).toBe(ORIGINAL);
      expect(original?.bestChunk.text).toContain("/usage");
    } finally {
      index.close();
    }
  });

  it("the same transcript in a second project folder is one result, also in the other folder", async () => {
    const { claudeDir, dbPath } = layOut();
    const other = "-tmp-elsewhere";
    mkdirSync(join(claudeDir, "projects", other), { recursive: true });
    cpSync(transcript(claudeDir, WENT_ON), transcript(claudeDir, WENT_ON, other));
    await syncIndex({ claudeDir, dbPath });
    const index = openSessionIndex(dbPath);
    try {
      const results = await searchSessions(index, "quarkolith variant", { search, now: NOW });
      const found = results.filter((result) => result.session.id === WENT_ON);
      expect(found).toHaveLength(1);
      const shown = found[0]?.session.project;
      const elsewhere = shown === PROJECT ? other : PROJECT;
      expect(found[0]?.alsoIn).toEqual([{ sessionId: WENT_ON, project: elsewhere }]);
    } finally {
      index.close();
    }
  });
});
