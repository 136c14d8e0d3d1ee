// The team's BM25 statistics on a real PostgreSQL (migration 5): pushed with the chunks through the real push
// (pushPending), counted as the local index counts them (its own tokens, not PostgreSQL's), decremented when
// chunks and sessions go (forget), beyond any member's reach to write, filled in by `ctx team migrate` for chunks
// pushed without them; and a team search scores a chunk the same for a member with the whole index, one whose index
// holds other sessions only, and one who has just joined and has no index at all (who gets team results).
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE } from "../../tests/helpers/claude-projects.ts";
import { startPgCluster } from "../../tests/helpers/pg-cluster.ts";
import { defaultConfig } from "../config/defaults.ts";
import { chunkTerms } from "../core/search/bm25-score.ts";
import { runForkDetect } from "../search/fork-detect.ts";
import { unpackChunkText } from "../search/session-index/chunk-text.ts";
import { databaseOf } from "../search/session-index/database.ts";
import { openSessionIndex } from "../search/session-index/session-index.ts";
import { syncIndex } from "../search/sync/sync-index.ts";
import { scoreTeamCandidates, teamWeighing } from "../search/team-hits.ts";
import { addSharedProject, readSharedProjects, sharedRootsForIngest } from "../store/team/team-state.ts";
import { connectTeam, type TeamClient, withTeamClient } from "./connect.ts";
import { pushPending } from "./push.ts";
import { fetchTeamCandidates, searchTeam } from "./search.ts";
import { teamCandidatesPort } from "./search-port.ts";
import { addMember, migrateTeam } from "./service.ts";
import { forgetSessions } from "./share.ts";

const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
afterAll(async () => cluster?.stop());

const OPTIONS = { connectTimeoutMs: 5_000 };
const QUERIES = ["phoenix liveview session transcript", "mix phx.server does not start", "claude code viewer"];

interface Member {
  role: string;
  env: NodeJS.ProcessEnv;
  dbPath: string;
  claudeDir: string;
  root: string;
}

describe.skipIf(cluster === null)(
  `team term statistics${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const pg = cluster as NonNullable<typeof cluster>;
    const url = (role: string) => pg.url(role, `${role}-pw`, "library");
    const sql = async (text: string) => (await pg.sql(text, "library")).rows;
    let base: string;
    const members = new Map<string, Member>();
    const member = (role: string) => members.get(role) as Member;

    /** A member's machine: their own CTX_HOME, and a Claude folder holding `files` run in their checkout `root`. */
    const machine = (role: string, files: readonly string[], cwdOf: (text: string) => string): Member => {
      const home = join(base, role);
      const root = join(home, "checkout");
      const claudeDir = join(home, "claude");
      const folder = join(claudeDir, "projects", "-checkout");
      mkdirSync(root, { recursive: true });
      mkdirSync(folder, { recursive: true });
      for (const file of files) {
        const text = readFileSync(file, "utf8");
        const from = cwdOf(text);
        const id = /"sessionId":"([^"]+)"/.exec(text)?.[1] as string;
        writeFileSync(join(folder, `${id}.jsonl`), text.replaceAll(`"cwd":"${from}`, `"cwd":"${root}`));
      }
      const env = { CTX_HOME: join(home, "ctx-home"), HOME: home, CTX_LOG_LEVEL: "silent" };
      const found = { role, env, dbPath: join(home, "ctx-home", "index.db"), claudeDir, root };
      members.set(role, found);
      return found;
    };
    const cwdIs = (cwd: string) => () => cwd;

    /** Shares the member's checkout, indexes it (queuing its sessions) and pushes through pushPending. */
    const shareAndPush = async (m: Member, remote: string) => {
      await addSharedProject(m.env, { remoteUrl: remote, repoPath: "" }, realpathSync(m.root));
      await syncIndex({
        claudeDir: m.claudeDir,
        dbPath: m.dbPath,
        teamShare: { roots: await sharedRootsForIngest(m.env) },
      });
      return pushPending({
        url: url(m.role),
        team: "web",
        connectTimeoutMs: 5_000,
        env: m.env,
        dbPath: m.dbPath,
        shared: await readSharedProjects(m.env),
        maxTranscriptMegabytes: 20,
      });
    };

    /** The statistics the server keeps, summed over authors. */
    const serverStatistics = async () => {
      const corpus = await sql(
        "SELECT coalesce(sum(chunks), 0)::int AS chunks, coalesce(sum(tokens), 0)::bigint AS tokens FROM ctx_team.corpus_stats",
      );
      const terms = await sql(
        "SELECT term, sum(docs)::int AS docs FROM ctx_team.term_stats GROUP BY term HAVING sum(docs) <> 0",
      );
      return {
        chunks: Number(corpus[0]?.chunks),
        tokens: Number(corpus[0]?.tokens),
        docs: new Map(terms.map((row) => [String(row.term), Number(row.docs)])),
      };
    };
    /** The same statistics computed here from the chunk texts the server holds, with ctx's own tokenizer. */
    const countedFromTexts = async () => {
      const rows = await sql("SELECT text FROM ctx_team.chunks");
      const docs = new Map<string, number>();
      let tokens = 0;
      for (const row of rows) {
        const counted = chunkTerms(String(row.text));
        tokens += counted.tokens;
        for (const term of counted.terms) docs.set(term, (docs.get(term) ?? 0) + 1);
      }
      return { chunks: rows.length, tokens, docs };
    };
    /** What a member's own index holds: its chunk count, token total and each term's documents (FTS5's vocabulary). */
    const localStatistics = (m: Member) => {
      const index = openSessionIndex(m.dbPath, { readonly: true });
      try {
        const chunks = Number((databaseOf(index).prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n);
        const texts = databaseOf(index).prepare("SELECT text FROM chunks").all() as { text: string | Uint8Array }[];
        const tokens = texts.reduce((sum, row) => sum + chunkTerms(unpackChunkText(row.text)).tokens, 0);
        const vocabulary = databaseOf(index).prepare("SELECT term, doc FROM chunks_vocab").all() as {
          term: string;
          doc: number;
        }[];
        return { chunks, tokens, docs: new Map(vocabulary.map((row) => [row.term, Number(row.doc)])) };
      } finally {
        index.close();
      }
    };

    beforeAll(async () => {
      await pg.createDatabase("library");
      for (const role of ["alice", "bob", "carol", "mallory"]) await pg.createRole(role, `${role}-pw`);
      await migrateTeam(pg.adminUrl("library"), OPTIONS);
      for (const role of ["alice", "bob", "carol", "mallory"]) {
        await addMember(pg.adminUrl("library"), OPTIONS, { role, team: "web" });
      }
      base = realpathSync(mkdtempSync(join(tmpdir(), "ctx-team-stats-")));
      machine("alice", [FIXTURE.short, FIXTURE.toolHeavy, FIXTURE.subagent], cwdIs("/home/marco/projects/spotter"));
      machine(
        "bob",
        [
          FIXTURE.viewer("1af7fc5e-8455-4414-9ccd-011d40f70b2a"),
          FIXTURE.viewer("5c0375b4-57a5-4f26-b12d-d022ee4e51b7"),
        ],
        cwdIs("/path/to/Demo"),
      );
      // carol has just joined: no sessions, no index.
      machine("carol", [], cwdIs(""));
    });

    it("push counts each chunk's own tokens (the local index's, stemmed) into the team's statistics", async () => {
      const alice = await shareAndPush(member("alice"), "github.com/acme/spotter");
      const bob = await shareAndPush(member("bob"), "github.com/acme/viewer");
      expect(alice.chunks).toBeGreaterThan(0);
      expect(bob.chunks).toBeGreaterThan(0);
      const server = await serverStatistics();
      expect(server).toEqual(await countedFromTexts());
      // Alice's share is what her own index counts: the same chunks, tokens and documents per term.
      const own = await sql(
        "SELECT sum(chunks)::int AS chunks, sum(tokens)::bigint AS tokens FROM ctx_team.corpus_stats WHERE author = 'alice'",
      );
      const local = localStatistics(member("alice"));
      expect({ chunks: Number(own[0]?.chunks), tokens: Number(own[0]?.tokens) }).toEqual({
        chunks: local.chunks,
        tokens: local.tokens,
      });
      const aliceTerms = await sql("SELECT term, docs::int AS docs FROM ctx_team.term_stats WHERE author = 'alice'");
      expect(new Map(aliceTerms.map((row) => [String(row.term), Number(row.docs)]))).toEqual(local.docs);
      // A stemmed token of ctx's tokenizer, not a PostgreSQL lexeme.
      expect(local.docs.has("phoenix")).toBe(true);
    });

    it("a chunk scores the same for every member, and one who has just joined (no index) gets the team's results", async () => {
      const base = defaultConfig();
      const search = (role: string, query: string, scope: "team" | "all" = "team") =>
        runForkDetect(
          { query, limit: 10, scope },
          {
            config: { ...base, team: { ...base.team, url: url(role), name: "web" } },
            env: member(role).env,
            projectRoot: member(role).root,
            now: () => Date.now(),
            claudeDir: member(role).claudeDir,
            refreshBudgetMs: 0,
            teamCandidates: teamCandidatesPort(
              { ...base, team: { ...base.team, url: url(role), name: "web" } },
              member(role).env,
            ),
          },
        );
      for (const query of QUERIES) {
        const [full, other, none] = [
          await search("alice", query),
          await search("bob", query),
          await search("carol", query),
        ];
        expect(none.notices).toEqual([]);
        expect(none.candidates.length).toBeGreaterThan(0);
        const shape = (r: typeof full) => r.candidates.map((c) => ({ id: c.sessionId, score: c.score }));
        expect(shape(other)).toEqual(shape(full));
        // `ctx search --team` (scope all) with nothing local: the same as the team alone.
        expect(shape(await search("carol", query, "all"))).toEqual(shape(none));
        expect(shape(none)).toEqual(shape(full));
      }
      // Chunk by chunk: the same candidates scored by three members' machines give the same similarities.
      // The text for a server without statistics is worked out only for one (it reads the local index): never here.
      let unweighedAsked = 0;
      const candidates = await searchTeam(url("carol"), OPTIONS, "web", {
        query: () => {
          unweighedAsked++;
          return QUERIES[0] as string;
        },
        limit: 50,
        weighing: teamWeighing(QUERIES[0] as string, { feedback: false }),
      });
      expect(candidates.statistics?.chunks).toBe((await countedFromTexts()).chunks);
      expect(unweighedAsked).toBe(0);
      const similarities = (role: string, scored = candidates) => {
        const index = openSessionIndex(member(role).dbPath, { readonly: true });
        try {
          return scoreTeamCandidates(index, QUERIES[0] as string, scored, { skipLocal: false }).hits.map((h) => [
            h.sessionId,
            h.chunkIndex,
            h.similarity,
          ]);
        } finally {
          index.close();
        }
      };
      expect(similarities("alice").length).toBeGreaterThan(0);
      expect(similarities("bob")).toEqual(similarities("alice"));
      expect(similarities("carol")).toEqual(similarities("alice"));
      // Only the rows of the sessions the search can rank are read (teamWeighing's `sessions`): those of the best
      // candidates, each as the full read gives it; every candidate still comes, and the others' sessions score lower.
      const leading = await searchTeam(url("carol"), OPTIONS, "web", {
        query: QUERIES[0] as string,
        limit: 50,
        weighing: teamWeighing(QUERIES[0] as string, { feedback: false, sessions: { count: 1 } }),
      });
      expect(leading.chunks).toEqual(candidates.chunks);
      expect(leading.sessions.size).toBe(1);
      const bestOf = new Map<string, number>();
      for (const [sessionId, , similarity] of similarities("carol") as [string, number, number][]) {
        if (!bestOf.has(sessionId)) bestOf.set(sessionId, similarity);
      }
      expect(bestOf.size).toBeGreaterThan(1);
      const lowestRead = Math.min(...[...leading.sessions.keys()].map((id) => bestOf.get(id) ?? Number.NaN));
      for (const [id, row] of leading.sessions) expect(row).toEqual(candidates.sessions.get(id));
      for (const [id, best] of bestOf) if (!leading.sessions.has(id)) expect(best).toBeLessThanOrEqual(lowestRead);
      expect(new Set(similarities("carol", leading).map(([id]) => id))).toEqual(new Set(leading.sessions.keys()));
      // Each candidate came with its counts of the scored terms, pushed with it (migration 9): those its text holds.
      expect(candidates.chunks.every((chunk) => (chunk.counts?.frequencies.size ?? 0) > 0)).toBe(true);
      for (const chunk of candidates.chunks) {
        const counted = chunkTerms(chunk.text);
        const frequency = new Map(counted.terms.map((term, i) => [term, counted.counts[i]]));
        expect(chunk.counts?.tokens).toBe(counted.tokens);
        for (const [term, count] of chunk.counts?.frequencies ?? []) expect(count).toBe(frequency.get(term) ?? 0);
      }
      // Scored from them exactly as from the text (a chunk pushed before them is).
      const fromText = { ...candidates, chunks: candidates.chunks.map(({ counts: _, ...chunk }) => chunk) };
      expect(similarities("carol", fromText)).toEqual(similarities("carol"));
      // A server older than version 16 (no search_candidates) is asked through search_chunks, each candidate's counts
      // read by its key: the same candidates, counts and tokens, on a new connection and on a kept one (which goes on
      // answering once the function is back).
      const weighed = (client?: TeamClient) => {
        const request = {
          query: QUERIES[0] as string,
          limit: 50,
          weighing: teamWeighing(QUERIES[0] as string, { feedback: false }),
        };
        return client === undefined
          ? searchTeam(url("carol"), OPTIONS, "web", request)
          : fetchTeamCandidates(client, "web", request);
      };
      const current = await weighed();
      expect(current).toEqual(candidates);
      const signature = "ctx_team.search_candidates(bigint, tsquery, tsquery, integer, text[])";
      await sql(`ALTER FUNCTION ${signature} RENAME TO search_candidates_set_aside`);
      const kept = await connectTeam(url("carol"), OPTIONS);
      try {
        expect(await weighed()).toEqual(current);
        expect(await weighed(kept)).toEqual(current);
        await sql(
          "ALTER FUNCTION ctx_team.search_candidates_set_aside(bigint, tsquery, tsquery, integer, text[]) RENAME TO search_candidates",
        );
        expect(await weighed(kept)).toEqual(current);
      } finally {
        await kept.end();
        await sql(
          `DO $$ BEGIN ALTER FUNCTION ctx_team.search_candidates_set_aside(bigint, tsquery, tsquery, integer, text[])
             RENAME TO search_candidates; EXCEPTION WHEN undefined_function THEN NULL; END $$`,
        );
      }
    });

    it("no member can write the statistics, and a member's own lies count no more than a chunk holding those words", async () => {
      const before = await serverStatistics();
      const othersRows = async () =>
        sql("SELECT term, author, docs FROM ctx_team.term_stats WHERE author <> 'mallory' ORDER BY term, author");
      const othersBefore = await othersRows();
      const mallory = await connectTeam(url("mallory"), OPTIONS);
      try {
        const teamId = String((await mallory.query("SELECT id FROM ctx_team.teams WHERE name = 'web'")).rows[0]?.id);
        const refused = async (text: string, params: unknown[] = []) => {
          const error = await mallory.query(text, params).then(
            () => null,
            (e: unknown) => e as { code?: string },
          );
          return error?.code;
        };
        // Direct writes: no privilege on the tables, the trigger functions not callable.
        expect(await refused("UPDATE ctx_team.term_stats SET docs = 1000000")).toBe("42501");
        expect(await refused("DELETE FROM ctx_team.term_stats")).toBe("42501");
        expect(
          await refused(
            "INSERT INTO ctx_team.term_stats (team_id, term, author, docs) VALUES ($1, 'phoenix', 'alice', 99)",
            [teamId],
          ),
        ).toBe("42501");
        expect(await refused("UPDATE ctx_team.corpus_stats SET chunks = 1")).toBe("42501");
        expect(await refused("SELECT ctx_team.chunk_terms_inserted()")).toBe("42501");
        // Through another member's rows: row-level security refuses (and nothing is counted).
        const aliceSession = String(
          (await sql("SELECT id FROM ctx_team.sessions WHERE author = 'alice' LIMIT 1"))[0]?.id,
        );
        expect(
          await refused(
            `INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message, text,
             terms, term_tokens) VALUES ($1, $2, 999, 0, 0, 0, 'x', ARRAY['phoenix'], 1)`,
            [teamId, aliceSession],
          ),
        ).toBe("42501");
        expect(await refused("DELETE FROM ctx_team.chunks WHERE terms IS NOT NULL")).toBeUndefined();
        expect(await serverStatistics()).toEqual(before);
        // Through her own rows: a chunk claiming a term many times and a huge token count counts each term once and
        // no more tokens than its text has characters.
        await mallory.query(
          "INSERT INTO ctx_team.projects (team_id, remote_url, repo_path) VALUES ($1, 'github.com/m/x', '')",
          [teamId],
        );
        await mallory.query(
          `INSERT INTO ctx_team.sessions (team_id, id, project_id)
         SELECT $1, 'mallory-1', id FROM ctx_team.projects WHERE team_id = $1 AND added_by = current_user`,
          [teamId],
        );
        await mallory.query(
          `INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message, text,
           terms, term_tokens) VALUES ($1, 'mallory-1', 0, 0, 0, 0, 'twelve chars', ARRAY['phoenix', 'phoenix', 'phoenix'], 2000000000)`,
          [teamId],
        );
        // Counts that are not one per term, or not positive, are refused by the server; counts past the chunk's tokens,
        // and tokens past twice its characters, reach a search capped.
        const counted = (index: number, counts: string) =>
          refused(
            `INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message,
             text, terms, term_tokens, term_counts)
             VALUES ($1, 'mallory-1', $2, 0, 0, 0, 'phoenix liveview', ARRAY['phoenix', 'liveview'], 2000000000, $3)`,
            [teamId, index, counts],
          );
        expect(await counted(2, "{7}")).toBe("23514");
        expect(await counted(2, "{7,-1}")).toBe("23514");
        expect(await counted(2, "{2000000000,1}")).toBeUndefined();
        const query = QUERIES[0] as string;
        const seen = await searchTeam(url("mallory"), OPTIONS, "web", {
          query,
          limit: 50,
          weighing: teamWeighing(query, { feedback: false }),
        });
        const lying = seen.chunks.find((chunk) => chunk.sessionId === "mallory-1" && chunk.chunkIndex === 2);
        expect(lying?.counts?.tokens).toBe(2 * "phoenix liveview".length);
        expect(lying?.counts?.frequencies.get("phoenix")).toBe(2 * "phoenix liveview".length);
        await mallory.query("DELETE FROM ctx_team.chunks WHERE session_id = 'mallory-1' AND chunk_index = 2");
        // And a one-character chunk listing a vocabulary is not counted at all.
        await mallory.query(
          `INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message, text,
           terms, term_tokens) VALUES ($1, 'mallory-1', 1, 0, 0, 0, 'x', ARRAY['phoenix', 'liveview', 'ecto'], 1)`,
          [teamId],
        );
        const lied = await serverStatistics();
        expect(lied.chunks).toBe(before.chunks + 1);
        expect(lied.tokens).toBe(before.tokens + "twelve chars".length);
        expect(lied.docs.get("phoenix")).toBe((before.docs.get("phoenix") ?? 0) + 1);
        expect(lied.docs.get("ecto") ?? 0).toBe(before.docs.get("ecto") ?? 0);
        // Alice's and Bob's own rows are untouched.
        expect(await othersRows()).toEqual(othersBefore);
        await mallory.query("DELETE FROM ctx_team.sessions WHERE id = 'mallory-1'");
        expect(await serverStatistics()).toEqual(before);
      } finally {
        await mallory.end();
      }
    });

    it("forget uncounts the sessions' chunks; chunks pushed without terms are counted by `ctx team migrate`", async () => {
      const bob = member("bob");
      const bobSessions = (await sql("SELECT id FROM ctx_team.sessions WHERE author = 'bob' ORDER BY id")).map((r) =>
        String(r.id),
      );
      const forgotten = await forgetSessions({
        server: { url: url("bob"), team: "web", options: OPTIONS },
        dbPath: bob.dbPath,
        ids: bobSessions.slice(0, 1),
      });
      expect(forgotten.deleted).toEqual(bobSessions.slice(0, 1));
      expect(await serverStatistics()).toEqual(await countedFromTexts());
      // A chunk removed by itself (a file re-read with fewer chunks) is uncounted too.
      await withTeamClient(url("alice"), OPTIONS, (client: TeamClient) =>
        client.query(
          "DELETE FROM ctx_team.chunks WHERE (session_id, chunk_index) IN (SELECT session_id, max(chunk_index) FROM ctx_team.chunks WHERE session_id IN (SELECT id FROM ctx_team.sessions WHERE author = current_user) GROUP BY session_id)",
        ),
      );
      expect(await serverStatistics()).toEqual(await countedFromTexts());
      // Chunks as a server before version 5 held them (no terms): not counted until migrate fills them in.
      await sql("UPDATE ctx_team.chunks SET terms = NULL, term_tokens = NULL");
      expect((await serverStatistics()).chunks).toBe(0);
      expect((await serverStatistics()).docs.size).toBe(0);
      // A member's search then has no team statistics to score with (it falls back to the local index's), rather
      // than planning the query over an empty corpus.
      // The text it sends then is worked out, once.
      let unweighedAsked = 0;
      const uncounted = await searchTeam(url("alice"), OPTIONS, "web", {
        query: () => {
          unweighedAsked++;
          return "phoenix server";
        },
        limit: 50,
        weighing: teamWeighing("phoenix server", { feedback: false }),
      });
      expect(uncounted.statistics).toBeNull();
      expect(unweighedAsked).toBe(1);
      expect(uncounted.chunks.length).toBeGreaterThan(0);
      await migrateTeam(pg.adminUrl("library"), OPTIONS);
      expect(await serverStatistics()).toEqual(await countedFromTexts());
      // Everyone's sessions forgotten: nothing is left counted.
      for (const role of ["alice", "bob"]) {
        await forgetSessions({
          server: { url: url(role), team: "web", options: OPTIONS },
          dbPath: member(role).dbPath,
        });
      }
      expect(await serverStatistics()).toEqual({ chunks: 0, tokens: 0, docs: new Map() });
    });
  },
);
