import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LONG_SESSION, layOutClaudeDir, VIEWER_PROJECT } from "../../tests/helpers/claude-projects.ts";
import { assistantText, userPrompt } from "../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../config/defaults.ts";
import { BM25_K1 } from "../core/search/bm25-calibration.ts";
import type { ChunkHit } from "../core/search/model.ts";
import { POOL_WEIGHT_CAP } from "../core/search/passage.ts";
import { isStrongMatch, searchSessions } from "./search-sessions.ts";
import { databaseOf } from "./session-index/database.ts";
import { openSessionIndex, type SessionIndex } from "./session-index/session-index.ts";
import { syncIndex } from "./sync/sync-index.ts";

const search = defaultConfig().search;
const NOW = Date.UTC(2026, 2, 1);
let index: SessionIndex;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "ctx-search-"));
  const dbPath = join(root, "index.db");
  await syncIndex({ claudeDir: layOutClaudeDir(root), dbPath });
  index = openSessionIndex(dbPath, { readonly: true });
});
afterAll(() => index.close());

describe("searchSessions on the fixture transcripts", () => {
  it.each([
    ["credo dialyzer mix_audit igniter", "subagent"],
    ["init analyze codebase CLAUDE.md future instances", "1af7fc5e-8455-4414-9ccd-011d40f70b2a"],
    // The words of a summary record that fe5e1c67's file holds and 1af7fc5e's line names: the session it titles.
    ["empty repo CLAUDE.md foundation", "1af7fc5e-8455-4414-9ccd-011d40f70b2a"],
    ["bead spotter-dov subtasks", LONG_SESSION],
    ["start phoenix in the background", "tool_heavy"],
  ])("%s ranks its session first", async (query, expected) => {
    const results = await searchSessions(index, query, { search, now: NOW });
    expect(results[0]?.session.id).toBe(expected);
    expect(results.length).toBeLessThanOrEqual(5);
    for (const [i, result] of results.entries()) {
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThanOrEqual(result.components.relevance * (1 + search.tieMargin) + 1e-12);
      expect(result.components.relevance).toBeLessThanOrEqual(1);
      expect(result.components.passageSimilarity).toBeLessThanOrEqual(1);
      expect(result.components.bestSimilarity).toBeLessThanOrEqual(1);
      expect(result.bestChunk.sessionId).toBe(result.session.id);
      expect(result.matchedChunks).toBeLessThanOrEqual(result.totalChunks);
      if (i > 0) expect(result.score).toBeLessThanOrEqual(results[i - 1]?.score ?? 1);
    }
    expect(results.filter((r) => isStrongMatch(r, search))[0]?.session.id).toBe(expected);
  });

  it("a query about nothing in the index has no strong match", async () => {
    const results = await searchSessions(index, "kubernetes ingress helm chart terraform", { search, now: NOW });
    expect(results.filter((r) => isStrongMatch(r, search))).toEqual([]);
    expect(await searchSessions(index, "", { search, now: NOW })).toEqual([]);
  });

  it("honours filters and the limit", async () => {
    const viewerOnly = await searchSessions(index, "CLAUDE.md", {
      search,
      now: NOW,
      filters: { projects: [VIEWER_PROJECT] },
      limit: 10,
    });
    expect(viewerOnly.length).toBeGreaterThan(0);
    for (const result of viewerOnly) expect(result.session.project).toBe(VIEWER_PROJECT);
    expect(await searchSessions(index, "phoenix", { search, now: NOW, limit: 1 })).toHaveLength(1);
  });

  it("fuses vector hits by reciprocal rank; the similarity stays calibrated", async () => {
    const viewerChunk = databaseOf(index)
      .prepare("SELECT id, session_id, chunk_index, text FROM chunks WHERE session_id = ? LIMIT 1")
      .get("5c0375b4-57a5-4f26-b12d-d022ee4e51b7") as {
      id: number;
      session_id: string;
      chunk_index: number;
      text: string;
    };
    const seen: Array<[string, number]> = [];
    const vectorSearch = async (query: string, limit: number): Promise<ChunkHit[]> => {
      seen.push([query, limit]);
      return [
        {
          chunkId: viewerChunk.id,
          sessionId: viewerChunk.session_id,
          chunkIndex: viewerChunk.chunk_index,
          similarity: 0.97,
          memoryType: null,
          text: viewerChunk.text,
        },
      ];
    };
    const results = await searchSessions(index, "phoenix server background", {
      search,
      now: NOW,
      vectorSearch,
      limit: 10,
    });
    expect(seen).toEqual([["phoenix server background", 300]]);
    const fromVectors = results.find((result) => result.session.id === viewerChunk.session_id);
    expect(fromVectors?.components.bestSimilarity).toBe(0.97);
    expect(results[0]?.session.id).toBe("tool_heavy");
    for (const result of results) expect(result.components.relevance).toBeLessThanOrEqual(1);
  });

  it("a date the query names: sessions active on it score namedDate 1 and gain relevance, the others 0", async () => {
    const plain = await searchSessions(index, "CLAUDE.md", { search, now: NOW, limit: 10 });
    expect(plain.length).toBeGreaterThan(1);
    for (const result of plain) expect(result.components.namedDate).toBeNull();
    const target = plain[plain.length - 1];
    if (target === undefined) throw new Error("no result");
    const when = new Date(target.session.createdAt);
    const month = when.toLocaleString("en-US", { month: "long" });
    const dated = await searchSessions(index, `CLAUDE.md on ${when.getDate()} ${month} ${when.getFullYear()}`, {
      search,
      now: NOW,
      limit: 10,
    });
    const onDay = dated.find((result) => result.session.id === target.session.id);
    expect(onDay?.components.namedDate).toBe(1);
    expect(onDay?.components.relevance ?? 0).toBeGreaterThan(target.components.relevance);
    const dayMs = 86_400_000;
    for (const result of dated) {
      const far =
        result.session.updatedAt < target.session.createdAt - 3 * dayMs ||
        result.session.createdAt > target.session.createdAt + 3 * dayMs;
      if (far) expect(result.components.namedDate).toBe(0);
    }
  });

  it("scores the leading sessions on the query's feedback terms; weight 0 turns feedback off", async () => {
    const results = await searchSessions(index, "phoenix server background", { search, now: NOW, limit: 5 });
    expect(results.some((result) => (result.components.feedbackSimilarity ?? 0) > 0)).toBe(true);
    for (const result of results) expect(result.components.feedbackSimilarity).not.toBeNull();
    const off = { ...search, weights: { ...search.weights, feedbackSimilarity: 0 } };
    for (const result of await searchSessions(index, "phoenix server background", { search: off, now: NOW })) {
      expect(result.components.feedbackSimilarity).toBeNull();
    }
  });

  it("says which memory markers lifted each session, with the chunk; a marker filter keeps only those sessions", async () => {
    const all = await searchSessions(index, "tests pass fix", { search, now: NOW, limit: 20 });
    const markersById = new Map(all.map((result) => [result.session.id, result.markers.map((m) => m.type)]));
    // A small index is scored whole (`test` and `pass` are in most of its chunks): the long session's pattern chunk
    // matches too, and the working solution, the larger lift, comes first.
    expect(markersById.get(LONG_SESSION)).toEqual(["WORKING_SOLUTION", "PATTERN"]);
    expect(markersById.get("fe5e1c67-53e7-4862-81ae-d0e013e3270b")).toEqual(["WAITING"]);
    for (const result of all) {
      for (const marker of result.markers) expect(marker.chunkIndex).toBeGreaterThanOrEqual(0);
      expect(result.components.boost > 1).toBe(result.markers.length > 0);
    }
    const solutions = await searchSessions(index, "tests pass fix", {
      search,
      now: NOW,
      limit: 20,
      filters: { markers: ["WORKING_SOLUTION"] },
    });
    expect(solutions.map((result) => result.session.id)).toEqual([LONG_SESSION]);
    const either = await searchSessions(index, "tests pass fix", {
      search,
      now: NOW,
      limit: 20,
      filters: { markers: ["WAITING", "WORKING_SOLUTION"] },
    });
    expect(either.map((result) => result.session.id).sort()).toEqual(
      [LONG_SESSION, "fe5e1c67-53e7-4862-81ae-d0e013e3270b"].sort(),
    );
  });

  it("reads the local index's candidates before it waits for the team's hits", async () => {
    // The team's statement runs on its server meanwhile (fork-detect.ts): the local read must not wait for it.
    const read = vi.spyOn(index, "searchChunks");
    try {
      let release = () => {};
      const team = new Promise<undefined>((resolve) => {
        release = () => resolve(undefined);
      });
      const searching = searchSessions(index, "start phoenix in the background", { search, now: NOW, team });
      await new Promise((resolve) => setImmediate(resolve));
      expect(read).toHaveBeenCalledTimes(1);
      release();
      const results = await searching;
      expect(results[0]?.session.id).toBe("tool_heavy");
    } finally {
      read.mockRestore();
    }
  });

  it("tokenizes the local leaders while it waits for the team's hits, and ranks as it would without waiting", async () => {
    // The team's statement is the longest wait of a team search (issue 36): the local leaders' passages are worked out
    // meanwhile, a step at a time, and the answer is the same as when the hits are in hand at once.
    const query = "start phoenix in the background";
    const ranking = (results: Awaited<ReturnType<typeof searchSessions>>) =>
      results.map((result) => [result.session.id, result.score, result.components]);
    const expected = ranking(await searchSessions(index, query, { search, now: NOW }));
    const searchChunks = index.searchChunks.bind(index);
    let textsRead = 0;
    const counted = (hit: ChunkHit): ChunkHit => {
      const { text, ...rest } = hit;
      return Object.defineProperty(rest, "text", {
        enumerable: true,
        get: () => {
          textsRead++;
          return text;
        },
      }) as ChunkHit;
    };
    const read = vi.spyOn(index, "searchChunks").mockImplementation((...args) => searchChunks(...args).map(counted));
    try {
      let release = () => {};
      const team = new Promise<undefined>((resolve) => {
        release = () => resolve(undefined);
      });
      const searching = searchSessions(index, query, { search, now: NOW, team });
      for (let turn = 0; turn < 200; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(textsRead).toBeGreaterThan(0);
      release();
      expect(ranking(await searching)).toEqual(expected);
      // An answer already in hand: the same ranking.
      const inHand = searchSessions(index, query, { search, now: NOW, team: Promise.resolve(undefined) });
      expect(ranking(await inHand)).toEqual(expected);
    } finally {
      read.mockRestore();
    }
  });

  it("rejects ranking settings that cannot rank", async () => {
    const broken = { ...search, weights: { ...search.weights, bestSimilarity: 0, passageSimilarity: 0 } };
    await expect(searchSessions(index, "phoenix", { search: broken, now: NOW })).rejects.toThrow(/cannot all be 0/);
  });
});

describe("searchSessions: what the person typed", () => {
  it("ranks the session whose prompt asked for it above one whose replies only talk about it", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-search-typed-"));
    const claudeDir = join(root, "claude");
    const project = join(claudeDir, "projects", "-home-user-site");
    mkdirSync(project, { recursive: true });
    const write = (sessionId: string, lines: string[]) =>
      writeFileSync(join(project, `${sessionId}.jsonl`), `${lines.join("\n")}\n`);
    const at = (sessionId: string) => ({ sessionId, cwd: "/home/user/site" });
    const typed = at("typed");
    write("typed", [
      userPrompt(typed, "rotate the nginx access logs every night and keep a week of them"),
      assistantText(typed, "t1", "Added /etc/logrotate.d/site: daily, rotate 7, compress."),
    ]);
    const hub = at("hub");
    write("hub", [
      userPrompt(hub, "look at why the deploy script is slow"),
      assistantText(
        hub,
        "h1",
        "The deploy waits on the nginx access logs: they are never rotated, so every night the access logs " +
          "grow and nginx reopens them. Rotate the access logs and keep a week of nginx logs, and the deploy is fast.",
      ),
      userPrompt(hub, "ok, carry on with the cache headers"),
      assistantText(hub, "h2", "Cache headers set for the static files."),
    ]);
    for (const [id, prompt, reply] of [
      ["other-1", "add a dark mode toggle to the settings page", "Dark mode toggle added."],
      ["other-2", "fix the flaky login test on CI", "The login test now waits for the redirect."],
      ["other-3", "bump the postgres image to 16", "Postgres 16 in docker-compose.yml."],
      ["other-4", "write the release notes for 2.3", "Release notes for 2.3 are in CHANGELOG.md."],
    ] as const) {
      write(id, [userPrompt(at(id), prompt), assistantText(at(id), `${id}-a`, reply)]);
    }
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    const small = openSessionIndex(dbPath, { readonly: true });
    try {
      const query = "rotate nginx access logs nightly, keep a week";
      const shipped = await searchSessions(small, query, { search, now: NOW });
      expect(shipped[0]?.session.id).toBe("typed");
      const byId = new Map(shipped.map((result) => [result.session.id, result.components]));
      expect(byId.get("typed")?.promptSimilarity ?? 0).toBeGreaterThan(byId.get("hub")?.promptSimilarity ?? 1);
      // Without the part, the session that only talked about it wins on its replies' words.
      const off = { ...search, weights: { ...search.weights, promptSimilarity: 0 } };
      const without = await searchSessions(small, query, { search: off, now: NOW });
      expect(without[0]?.session.id).toBe("hub");
      for (const result of without) expect(result.components.promptSimilarity).toBeNull();
    } finally {
      small.close();
    }
  });

  it("counts the prompt that asked for the task when its chunk is not among the session's best", async () => {
    const root = mkdtempSync(join(tmpdir(), "ctx-search-typed-late-"));
    const claudeDir = join(root, "claude");
    const project = join(claudeDir, "projects", "-home-user-mac");
    mkdirSync(project, { recursive: true });
    const audit = { sessionId: "audit", cwd: "/home/user/mac" };
    // Words that are none of the query's, so the first exchange's chunk is long and weak on the query's words.
    const filler = (seed: number) =>
      Array.from({ length: 420 }, (_, i) => `word${(seed * 7919 + i * 104_729) % 5_000}`).join(" ");
    const lines = [
      userPrompt(audit, "perform a full security audit of this mac and write the report into the repo docs"),
      assistantText(audit, "a1", `Starting with the system inventory. ${filler(1)}`),
    ];
    for (let part = 2; part <= 4; part += 1) {
      lines.push(userPrompt(audit, "go on"));
      lines.push(
        assistantText(
          audit,
          `a${part}`,
          `Security audit, part ${part}: the mac's firewall, the audit report's findings, the security audit report ` +
            `in the repo docs updated. ${filler(part)}`,
        ),
      );
    }
    writeFileSync(join(project, "audit.jsonl"), `${lines.join("\n")}\n`);
    const other = { sessionId: "other", cwd: "/home/user/mac" };
    writeFileSync(
      join(project, "other.jsonl"),
      `${[userPrompt(other, "bump the node version"), assistantText(other, "o1", "Node 22 in .nvmrc.")].join("\n")}\n`,
    );
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    const small = openSessionIndex(dbPath, { readonly: true });
    try {
      expect(small.chunkCount("audit")).toBeGreaterThanOrEqual(3);
      const query = "security audit of my mac written into the repo docs";
      // The chunk holding the prompt is not one of the session's two best: its reply is long and says none of the words.
      const hits = small
        .searchChunks(query, {}, 300)
        .filter((hit) => hit.sessionId === "audit")
        .sort((a, b) => b.similarity - a.similarity);
      const promptChunk = hits.findIndex((hit) => hit.text.includes("perform a full security audit"));
      expect(promptChunk).toBeGreaterThanOrEqual(2);
      const results = await searchSessions(small, query, { search, now: NOW });
      const found = results.find((result) => result.session.id === "audit");
      expect(found?.components.promptSimilarity ?? 0).toBeGreaterThan(0.1);
    } finally {
      small.close();
    }
  });
});

describe("searchSessions: words the leading sessions share", () => {
  it("weighs a name every leading session holds as little as it tells them apart", async () => {
    // One conversation with Melanie among a larger history: the name is rare in the history (a high idf) and in every
    // one of the 20 leading sessions. In their passages it weighs at most 1.5 · ln 2, so the passage that says why she
    // took up running (a word in 41 of 400 sessions) beats the one that only says her name three times; weighed by
    // the history's idf alone it did not (0.520 against 0.570).
    const root = mkdtempSync(join(tmpdir(), "ctx-search-pool-"));
    const claudeDir = join(root, "claude");
    const project = join(claudeDir, "projects", "-home-user-chat");
    mkdirSync(project, { recursive: true });
    const write = (sessionId: string, prompt: string, reply: string) => {
      const at = { sessionId, cwd: "/home/user/chat" };
      writeFileSync(
        join(project, `${sessionId}.jsonl`),
        `${[userPrompt(at, prompt), assistantText(at, `${sessionId}-a`, reply)].join("\n")}\n`,
      );
    };
    write(
      "why-running",
      "Melanie: how was the weekend",
      "I took up running last spring to clear my head, and the kids come along on Sundays.",
    );
    write(
      "name-often",
      "Melanie: Melanie here, Melanie again",
      "The reason I called is the pottery class with the kids on Friday.",
    );
    for (let i = 0; i < 23; i++) {
      write(`melanie-${i}`, `Melanie: w${i}a w${i}b`, `w${i}c w${i}d w${i}e.`);
    }
    for (let i = 0; i < 40; i++) write(`run-${i}`, `check job ${i}`, `The job ${i} is running on the build machine.`);
    for (let i = 0; i < 100; i++)
      write(`why-${i}`, `look at test ${i}`, `The reason test ${i} fails is a stale cache.`);
    for (let i = 0; i < 235; i++)
      write(`other-${i}`, `rename module ${i}`, `Module ${i} renamed and its imports fixed.`);
    const dbPath = join(root, "index.db");
    await syncIndex({ claudeDir, dbPath });
    const history = openSessionIndex(dbPath, { readonly: true });
    try {
      const results = await searchSessions(history, "Melanie reason running", { search, now: NOW, limit: 10 });
      const byId = new Map(results.map((result) => [result.session.id, result.components]));
      expect(byId.get("why-running")?.passageSimilarity ?? 0).toBeGreaterThan(
        byId.get("name-often")?.passageSimilarity ?? 1,
      );
      // Its window: the name three times at the cap, `reason` once at the history's idf (only it of the 20 holds it).
      const weighed = history.weighQuery("Melanie reason running");
      expect(weighed.terms).toEqual(["melani", "reason", "run"]);
      const saturated = (f: number) => (f * (BM25_K1 + 1)) / (f + BM25_K1);
      const capped = POOL_WEIGHT_CAP * Math.log(2) * saturated(3) + (weighed.idf[1] ?? 0) * saturated(1);
      expect(byId.get("name-often")?.passageSimilarity).toBeCloseTo(capped / weighed.reference, 10);
    } finally {
      history.close();
    }
  });
});
