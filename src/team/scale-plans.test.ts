// The query plans the team library's speed at scale depends on (migration 7; bench/team-scale.bench.ts measures the
// speed, docs/team.md "At scale"), read with auto_explain from inside the real statements: a search through
// ctx_team.search_candidates finds its candidates through the GIN index, not by reading every chunk's tsvector, and
// their counts from the rows it read, a filtered search reads their sessions by key, and the statistics trigger of a push reads each chunk's session by its key, not by scanning every session. A member's
// role loads auto_explain, and its plans reach the connection as LOG notices.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageTexts, readEntries, realTranscriptPaths } from "../../tests/helpers/fixture-messages.ts";
import { findPostgresBin, startPgCluster } from "../../tests/helpers/pg-cluster.ts";
import { insertTeamSessions, type TeamFixtureSession } from "../../tests/helpers/team-fixture.ts";
import { teamWeighing } from "../search/team-hits.ts";
import { connectTeam, type TeamClient } from "./connect.ts";
import { addTeamMember } from "./members.ts";
import { migrateTeamSchema } from "./migrate.ts";
import { fetchTeamCandidates } from "./search.ts";

const bin = findPostgresBin();
const libraries = bin === null ? null : join(bin, "..", "lib");
const hasAutoExplain = libraries !== null && existsSync(join(libraries, "auto_explain.so"));
const started = await startPgCluster();
const cluster = "cluster" in started ? started.cluster : null;
const clients: TeamClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.end().catch(() => {});
  await cluster?.stop();
});

/** Sessions of one chunk each, ~3 kB of real transcript text (the size whose tsvectors PostgreSQL TOASTs). */
const SESSIONS = 600;

/** A session of the web repository whose chunks are these texts, one each. */
function webSession(id: string, title: string, texts: readonly string[]): TeamFixtureSession {
  return { id, remote: "github.com/acme/web", title, chunks: texts.map((text) => ({ text })) };
}

function realChunkTexts(count: number): string[] {
  const texts = realTranscriptPaths().flatMap((path) => readEntries(path).flatMap(messageTexts));
  const chunks: string[] = [];
  let current = "";
  for (let i = 0; chunks.length < count; i++) {
    current += `${texts[i % texts.length]}\n`;
    if (current.length >= 3_000) {
      // The same texts come round again: a session number keeps every chunk distinct.
      chunks.push(`${current.slice(0, 3_500)}\nsession ${chunks.length}`);
      current = "";
    }
  }
  return chunks;
}

/**
 * search_candidates' body (search_chunks', whose plans carry "every_word") found its candidates through the GIN index's bitmap: no chunk
 * read whole, none tested by reading its tsvector in a filter.
 */
function expectCandidatesByGinBitmap(notices: readonly string[]): void {
  const body = plansOf(notices, "every_word");
  expect(body.length).toBeGreaterThan(0);
  for (const plan of body) {
    expect(plan).toContain("Bitmap Index Scan on chunks_search");
    expect(plan).not.toMatch(/Seq Scan on chunks\b/);
    expect(plan).not.toMatch(/Filter: \(+search @@/);
  }
}

/** The plans among `notices` whose query text contains `marker`. */
function plansOf(notices: readonly string[], marker: string): string[] {
  return notices.filter((n) => n.includes("Query Text:") && n.includes(marker));
}

describe.skipIf(cluster === null || !hasAutoExplain)(
  `team query plans at scale${"skipReason" in started ? ` (${started.skipReason})` : ""}`,
  () => {
    const pg = cluster as NonNullable<typeof cluster>;
    const notices: string[] = [];
    let alice: TeamClient;
    let texts: string[];

    beforeAll(async () => {
      for (const role of ["owner", "alice"]) await pg.createRole(role, `${role}-pw`);
      await pg.sql('CREATE DATABASE library OWNER "owner"');
      const admin = await connectTeam(pg.url("owner", "owner-pw", "library"), { connectTimeoutMs: 5_000 });
      clients.push(admin);
      await migrateTeamSchema(admin);
      await addTeamMember(admin, { role: "alice", team: "web" });
      // Set by the superuser; alice's connections load auto_explain and log every plan, nested ones included.
      await pg.sql(`ALTER ROLE alice SET session_preload_libraries = 'auto_explain'`);
      await pg.sql("ALTER ROLE alice SET auto_explain.log_min_duration = 0");
      await pg.sql("ALTER ROLE alice SET auto_explain.log_nested_statements = on");
      // Plans with what ran: a branch the function skips shows "(never executed)".
      await pg.sql("ALTER ROLE alice SET auto_explain.log_analyze = on");
      alice = await connectTeam(pg.url("alice", "alice-pw", "library"), { connectTimeoutMs: 5_000 });
      clients.push(alice);
      texts = realChunkTexts(SESSIONS);
      const sessions = texts.map((text, i) => webSession(`s${i}`, `session ${i}`, [text]));
      for (let at = 0; at < sessions.length; at += 100) {
        await insertTeamSessions(alice, "web", sessions.slice(at, at + 100));
      }
      await admin.query("ANALYZE");
      await alice.query("SET client_min_messages = log");
      alice.on("notice", (notice) => notices.push(notice.message ?? ""));
    }, 120_000);

    it("keeps chunks_search's pending list short", async () => {
      const { rows } = await alice.query<{ options: string[] | null }>(
        "SELECT reloptions AS options FROM pg_catalog.pg_class WHERE oid = 'ctx_team.chunks_search'::regclass",
      );
      expect(rows[0]?.options).toContain("gin_pending_list_limit=256");
    });

    it("finds a search's candidates and their counts through the GIN index, their sessions by key, reading no table whole", async () => {
      const words = (texts[SESSIONS - 7] ?? "").match(/[A-Za-z]{5,}/g) ?? [];
      const query = words.slice(3, 6).join(" ");
      // Weighed by the team's statistics: each candidate comes with its counts of the scored terms, computed by
      // search_candidates from the row it read (migration 16): the statement reads no chunk again, and without a
      // filter no session (the search reads the candidates' sessions next).
      notices.length = 0;
      const weighed = await fetchTeamCandidates(alice, "web", {
        query,
        limit: 20,
        weighing: teamWeighing(query, { feedback: false }),
      });
      expect(weighed.chunks.length).toBeGreaterThan(0);
      expect(weighed.chunks.every((chunk) => (chunk.counts?.frequencies.size ?? 0) > 0)).toBe(true);
      const unfiltered = plansOf(notices, "FROM ctx_team.search_candidates(");
      expect(unfiltered).toHaveLength(1);
      expect(unfiltered[0]).not.toMatch(/ on (chunks|sessions|projects)\b/);
      expectCandidatesByGinBitmap(notices);
      // A filter reads each candidate's session by key, not by a scan of every session of the team.
      notices.length = 0;
      const filtered = await fetchTeamCandidates(alice, "web", { query, limit: 20, projectContains: "acme/web" });
      expect(filtered.chunks.length).toBeGreaterThan(0);
      const outer = plansOf(notices, "FROM ctx_team.search_candidates(");
      expect(outer).toHaveLength(1);
      expect(outer[0]).toContain("Index Scan using sessions_pkey on sessions s");
      expect(outer[0]).not.toMatch(/Seq Scan on sessions\b/);
      expectCandidatesByGinBitmap(notices);
    });

    it("finds a common-word query's candidates through the GIN index too, filtering no chunk by its tsvector", async () => {
      // The words most chunks hold: with a LIMIT, the planner prices a scan in table or key order that stops early
      // below a bitmap of every match, and that scan reads (detoasts) each chunk's tsvector to test it: at 439,000
      // chunks 170-400 ms per search against 40 for the bitmap (docs/team.md "At scale").
      const docs = new Map<string, number>();
      for (const text of texts) {
        for (const word of new Set((text.toLowerCase().match(/[a-z]{5,}/g) ?? []).slice(0, 400))) {
          docs.set(word, (docs.get(word) ?? 0) + 1);
        }
      }
      const common = [...docs].sort((a, b) => b[1] - a[1]).slice(0, 4);
      expect(
        common.every(([, n]) => n > SESSIONS / 4),
        JSON.stringify(common),
      ).toBe(true);
      // At 600 chunks the planner still picks the bitmap by itself; the session turning bitmaps off stands for a
      // planner that prices them above the early-stopping scans, as it did at 439,000 chunks. The function's own
      // settings decide inside it.
      await alice.query("SET enable_bitmapscan = off");
      notices.length = 0;
      const found = await fetchTeamCandidates(alice, "web", {
        query: common.map(([word]) => word).join(" "),
        limit: 20,
      });
      await alice.query("RESET enable_bitmapscan");
      expect(found.chunks.length).toBeGreaterThan(0);
      expectCandidatesByGinBitmap(notices);
    });

    it("finds and ranks a one-word query's candidates once, a query of more words' by every word, all but one and any", async () => {
      // One word: the chunks holding any of its words are the chunks holding all of them (migration 10). Before it,
      // the same chunks were found and ranked twice (at 10 x 10,000 sessions the function's p95 133 -> 80 ms). Nor
      // has it words to leave one out of (migration 13).
      const word = ((texts[SESSIONS - 3] ?? "").match(/[A-Za-z]{6,}/g) ?? [])[2] ?? "";
      const bodyScans = async (query: string) => {
        notices.length = 0;
        const found = await fetchTeamCandidates(alice, "web", { query, limit: 20 });
        expect(found.chunks.length).toBeGreaterThan(0);
        const body = plansOf(notices, "every_word");
        expect(body).toHaveLength(1);
        const scans = (body[0] ?? "").split("\n").filter((line) => line.includes("Bitmap Index Scan on chunks_search"));
        return {
          ran: scans.filter((line) => line.includes("(actual")).length,
          skipped: scans.filter((line) => line.includes("(never executed)")).length,
        };
      };
      expect(await bodyScans(word)).toEqual({ ran: 1, skipped: 2 });
      // Three words of one chunk (its texts come round again): 20 chunks or more hold them all, so no partial match
      // is looked for. With a word no chunk holds, the chunks holding the other two are, and those are enough.
      const words = (texts[SESSIONS - 5] ?? "").match(/[A-Za-z]{6,}/g) ?? [];
      expect(await bodyScans(words.slice(2, 5).join(" "))).toEqual({ ran: 1, skipped: 2 });
      expect(await bodyScans(`${words.slice(2, 4).join(" ")} zyzzyvaq`)).toEqual({ ran: 2, skipped: 1 });
      // Nine distinct words: no all-but-one side (its tsquery grows with the square of the words), any word instead.
      const nine = ["zyzzyvaq", "quixotry", "jackdaws", "blizzard", "fjordlike", "mnemonic", "pharaohs", "rhythmic"];
      expect(await bodyScans(`${words[2]} ${nine.join(" ")}`)).toEqual({ ran: 2, skipped: 1 });
    });

    /** How many rows each of the body's scans by the GIN index found (their next line: "Recheck Cond: (search @@"). */
    const ginScanRows = (notices: readonly string[]): number[] => {
      const body = plansOf(notices, "every_word");
      expect(body).toHaveLength(1);
      const lines = (body[0] ?? "").split("\n");
      return lines
        .filter((line, i) => line.includes("Bitmap Heap Scan on chunks") && lines[i + 1]?.includes("(search @@"))
        .filter((line) => line.includes("(actual"))
        .map((line) => Number(/\(actual [^)]*rows=(\d+)/.exec(line)?.[1] ?? Number.NaN))
        .sort((a, b) => a - b);
    };

    it("ranks only as many of the chunks holding some of a query's words as the search asks for", async () => {
      // Each ranked chunk's tsvector is read from TOAST (~10 µs at 10 x 10,000 sessions, and a new server process
      // faults in each page it touches): migration 13 takes as many of the any-word side's matches as the search
      // asks for (12: 1,000; 11: 2,000; before: 4,000; docs/team.md "At scale"). 4,400 chunks hold one word of two.
      const many = (word: string) =>
        Array.from({ length: 2_200 }, (_, i) => `${word} sighting number ${i} in the ${word} log`);
      await insertTeamSessions(alice, "web", [
        webSession("quokkas", "quokkas", many("quokka")),
        webSession("wombats", "wombats", many("wombat")),
      ]);
      notices.length = 0;
      const found = await fetchTeamCandidates(alice, "web", { query: "quokka wombat", limit: 20 });
      expect(found.chunks).toHaveLength(20);
      // Every word: none; any word: the first 20 of 4,400 (a query of two words has no all-but-one side).
      expect(ginScanRows(notices)).toEqual([0, 20]);
    });

    it("ranks at most 2,000 of the chunks holding every word of a query", async () => {
      // 2,200 chunks (the test above) hold both words: migration 14 ranks 2,000 of them (before it, 4,000: a query
      // whose every word many chunks hold read each one's heap row and TOASTed tsvector; docs/team.md "At scale").
      notices.length = 0;
      const found = await fetchTeamCandidates(alice, "web", { query: "quokka sighting", limit: 20 });
      expect(found.chunks).toHaveLength(20);
      // Every word: 2,000 of 2,200; no partial match is looked for (more than 20 hold them all).
      expect(ginScanRows(notices)).toEqual([2_000]);
    });

    it("takes the chunks holding all of a query's words but one before those holding any", async () => {
      // Behind the 4,400 chunks holding one word of "quokka wombat bilby" (the test above), one holds two of them:
      // version 12 ranked the first 1,000 any-word matches in table order and never saw it.
      await insertTeamSessions(alice, "web", [
        webSession("meeting", "meeting", ["the quokka finally met the wombat by the river"]),
      ]);
      notices.length = 0;
      const found = await fetchTeamCandidates(alice, "web", { query: "quokka wombat bilby", limit: 20 });
      expect(found.chunks.map((chunk) => chunk.sessionId)).toContain("meeting");
      // Every word: none; all but one: the meeting; any word: the first 20 (fewer than 20 held more).
      expect(ginScanRows(notices)).toEqual([0, 1, 20]);
      // Enough chunks hold all the words but one: none holding only one is ranked.
      notices.length = 0;
      const few = await fetchTeamCandidates(alice, "web", { query: "quokka wombat bilby", limit: 1 });
      expect(few.chunks.map((chunk) => chunk.sessionId)).toEqual(["meeting"]);
      expect(ginScanRows(notices)).toEqual([0, 1]);
    });

    it("builds the all-but-one query from any text a member types: quotes, hyphens, URLs, tsquery syntax", async () => {
      // Version 13 splits the server's own plainto_tsquery output and casts the pieces back: a lexeme it quotes or a
      // phrase it makes of a hyphenated word must come back whole, never as a syntax error that drops the team's results.
      await insertTeamSessions(alice, "web", [
        webSession("odd", "odd", ["o'brien's x-ray of the back\\slash http://example.com/a'b café"]),
      ]);
      for (const query of [
        "o'brien's x-ray back\\slash",
        "x-ray quokka-wombat bilby numbat",
        "http://example.com/a'b café naïve résumé",
        "' '' ''' & | ! :* <-> ( )",
        "quokka & !wombat | bilby:* <-> (numbat)",
      ]) {
        const found = await fetchTeamCandidates(alice, "web", { query, limit: 20 });
        expect(Array.isArray(found.chunks)).toBe(true);
      }
      const odd = await fetchTeamCandidates(alice, "web", { query: "o'brien's x-ray zyzzyvaq", limit: 20 });
      expect(odd.chunks.map((chunk) => chunk.sessionId)).toContain("odd");
    });

    it("reads each pushed chunk's session by its key when counting the team's statistics", async () => {
      notices.length = 0;
      // One push statement of 200 chunks (a push writes up to 1,000 a statement, src/team/push-write.ts).
      const late = texts.slice(0, 200).map((text, i) => webSession(`late${i}`, `late ${i}`, [text]));
      await insertTeamSessions(alice, "web", late);
      const counting = plansOf(notices, "INSERT INTO ctx_team.term_stats");
      expect(counting.length).toBeGreaterThan(0);
      for (const plan of counting) {
        expect(plan).toContain("Index Scan using sessions_pkey on sessions s");
        expect(plan).not.toMatch(/Seq Scan on sessions\b/);
      }
    });
  },
);
