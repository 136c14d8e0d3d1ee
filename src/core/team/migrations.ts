// The team library's schema in PostgreSQL, as numbered migrations of plain SQL (src/team/migrate.ts applies them in
// one transaction under an advisory lock). Everything lives in the `ctx_team` schema. Access is decided in the
// database itself: row-level security (FORCE'd, so the tables' owner is held to it too) lets a member's role read
// the rows of the teams it belongs to and write only its own. A migration is never edited once released: a change
// is a new entry at the end (the server records each version it applied in ctx_team.schema_version).

export const TEAM_SCHEMA = "ctx_team";

/** Key of the transaction-level advisory lock two concurrent `ctx team migrate` runs queue on. */
export const MIGRATION_LOCK_KEY = 7_341_902_113;

export interface TeamMigration {
  version: number;
  name: string;
  sql: string;
}

/** Created before any migration, so the version can be read and recorded. */
export const SCHEMA_VERSION_TABLE_SQL = `
CREATE SCHEMA IF NOT EXISTS ctx_team;
REVOKE ALL ON SCHEMA ctx_team FROM PUBLIC;
CREATE TABLE IF NOT EXISTS ctx_team.schema_version (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  applied_by name NOT NULL DEFAULT current_user
);`;

// Row-level security, the same shape on every table:
// - read: the row's team is one of the caller's teams (ctx_team.member_teams(current_user));
// - write: the caller's own rows (sessions.author, projects.added_by; chunks and transcripts through their session);
// - the role that ran the migration (the administrator) may do anything: `TO CURRENT_USER` names it at creation.
// member_teams is SECURITY DEFINER (members would otherwise need to read ctx_team.members under its own policy,
// a recursion) with a fixed search_path, and answers only for a role the session is, so it tells nobody else's teams.
const INITIAL_SCHEMA = `
CREATE TABLE ctx_team.teams (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ctx_team.members (
  team_id bigint NOT NULL REFERENCES ctx_team.teams(id) ON DELETE CASCADE,
  role_name name NOT NULL,
  handle text NOT NULL CHECK (length(handle) BETWEEN 1 AND 100),
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, role_name),
  UNIQUE (team_id, handle)
);
CREATE INDEX members_role ON ctx_team.members (role_name);

CREATE FUNCTION ctx_team.member_teams(who name) RETURNS SETOF bigint
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
    SELECT m.team_id FROM ctx_team.members m
    WHERE m.role_name = who AND (who = session_user OR pg_catalog.pg_has_role(session_user, who, 'MEMBER'))
  $$;
REVOKE ALL ON FUNCTION ctx_team.member_teams(name) FROM PUBLIC;

-- A project's identity across machines: its normalised git remote URL and the path inside the repository.
CREATE TABLE ctx_team.projects (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id bigint NOT NULL REFERENCES ctx_team.teams(id) ON DELETE CASCADE,
  remote_url text NOT NULL CHECK (length(remote_url) BETWEEN 1 AND 2000),
  repo_path text NOT NULL DEFAULT '',
  added_by name NOT NULL DEFAULT current_user,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (team_id, remote_url, repo_path),
  UNIQUE (team_id, id)
);

CREATE TABLE ctx_team.sessions (
  team_id bigint NOT NULL REFERENCES ctx_team.teams(id) ON DELETE CASCADE,
  id text NOT NULL,
  project_id bigint NOT NULL,
  author name NOT NULL DEFAULT current_user,
  title text NOT NULL DEFAULT '',
  branch text,
  started_at timestamptz,
  ended_at timestamptz,
  message_count integer NOT NULL DEFAULT 0 CHECK (message_count >= 0),
  lineage jsonb NOT NULL DEFAULT '{}'::jsonb,
  memory_markers text[] NOT NULL DEFAULT '{}',
  forkable boolean NOT NULL DEFAULT false,
  pushed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, id),
  -- Same team as the project: the foreign key check itself runs past row-level security.
  FOREIGN KEY (team_id, project_id) REFERENCES ctx_team.projects (team_id, id)
);
CREATE INDEX sessions_project ON ctx_team.sessions (project_id);
CREATE INDEX sessions_author ON ctx_team.sessions (author);

-- One searchable chunk, as in the local session index (src/search/session-index): keyed by the session, the
-- transcript it came from (source: '' for the main transcript, else the subagent transcript's file name) and its
-- index there; start_offset is the byte offset ingestion started that chunk from. Text arrives redacted.
CREATE TABLE ctx_team.chunks (
  team_id bigint NOT NULL,
  session_id text NOT NULL,
  source text NOT NULL DEFAULT '',
  chunk_index integer NOT NULL CHECK (chunk_index >= 0),
  start_offset bigint NOT NULL CHECK (start_offset >= 0),
  first_message integer NOT NULL,
  last_message integer NOT NULL,
  text text NOT NULL,
  token_count integer NOT NULL DEFAULT 0,
  has_code boolean NOT NULL DEFAULT false,
  languages text[] NOT NULL DEFAULT '{}',
  memory_type text CHECK (memory_type IN ('PATTERN', 'WORKING_SOLUTION', 'WAITING')),
  starts_exchange boolean NOT NULL DEFAULT true,
  last_uuid text,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
  PRIMARY KEY (team_id, session_id, source, chunk_index),
  FOREIGN KEY (team_id, session_id) REFERENCES ctx_team.sessions (team_id, id) ON DELETE CASCADE
);
CREATE INDEX chunks_search ON ctx_team.chunks USING gin (search);

-- The redacted transcript, compressed by the client, for forking.
CREATE TABLE ctx_team.transcripts (
  team_id bigint NOT NULL,
  session_id text NOT NULL,
  codec text NOT NULL CHECK (codec IN ('gzip', 'zstd')),
  raw_bytes bigint NOT NULL CHECK (raw_bytes >= 0),
  sha256 text NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (team_id, session_id),
  FOREIGN KEY (team_id, session_id) REFERENCES ctx_team.sessions (team_id, id) ON DELETE CASCADE
);
-- Already compressed: no second compression attempt by TOAST.
ALTER TABLE ctx_team.transcripts ALTER COLUMN data SET STORAGE EXTERNAL;

ALTER TABLE ctx_team.teams ENABLE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.teams FORCE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.members ENABLE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.members FORCE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.projects ENABLE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.projects FORCE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.sessions FORCE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.chunks FORCE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.transcripts ENABLE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.transcripts FORCE ROW LEVEL SECURITY;

CREATE POLICY administrator ON ctx_team.teams TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY administrator ON ctx_team.members TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY administrator ON ctx_team.projects TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY administrator ON ctx_team.sessions TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY administrator ON ctx_team.chunks TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY administrator ON ctx_team.transcripts TO CURRENT_USER USING (true) WITH CHECK (true);

CREATE POLICY team_reads ON ctx_team.teams FOR SELECT
  USING (id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY team_reads ON ctx_team.members FOR SELECT
  USING (team_id IN (SELECT ctx_team.member_teams(current_user)));

CREATE POLICY team_reads ON ctx_team.projects FOR SELECT
  USING (team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY own_inserts ON ctx_team.projects FOR INSERT
  WITH CHECK (added_by = current_user AND team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY own_updates ON ctx_team.projects FOR UPDATE
  USING (added_by = current_user AND team_id IN (SELECT ctx_team.member_teams(current_user)))
  WITH CHECK (added_by = current_user AND team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY own_deletes ON ctx_team.projects FOR DELETE USING (added_by = current_user);

CREATE POLICY team_reads ON ctx_team.sessions FOR SELECT
  USING (team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY own_inserts ON ctx_team.sessions FOR INSERT
  WITH CHECK (author = current_user AND team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY own_updates ON ctx_team.sessions FOR UPDATE
  USING (author = current_user AND team_id IN (SELECT ctx_team.member_teams(current_user)))
  WITH CHECK (author = current_user AND team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY own_deletes ON ctx_team.sessions FOR DELETE USING (author = current_user);

CREATE POLICY team_reads ON ctx_team.chunks FOR SELECT
  USING (team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY own_inserts ON ctx_team.chunks FOR INSERT WITH CHECK (EXISTS (
  SELECT 1 FROM ctx_team.sessions s WHERE s.team_id = chunks.team_id AND s.id = chunks.session_id AND s.author = current_user));
CREATE POLICY own_updates ON ctx_team.chunks FOR UPDATE USING (EXISTS (
  SELECT 1 FROM ctx_team.sessions s WHERE s.team_id = chunks.team_id AND s.id = chunks.session_id AND s.author = current_user))
  WITH CHECK (EXISTS (
  SELECT 1 FROM ctx_team.sessions s WHERE s.team_id = chunks.team_id AND s.id = chunks.session_id AND s.author = current_user));
CREATE POLICY own_deletes ON ctx_team.chunks FOR DELETE USING (EXISTS (
  SELECT 1 FROM ctx_team.sessions s WHERE s.team_id = chunks.team_id AND s.id = chunks.session_id AND s.author = current_user));

CREATE POLICY team_reads ON ctx_team.transcripts FOR SELECT
  USING (team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY own_inserts ON ctx_team.transcripts FOR INSERT WITH CHECK (EXISTS (
  SELECT 1 FROM ctx_team.sessions s
  WHERE s.team_id = transcripts.team_id AND s.id = transcripts.session_id AND s.author = current_user));
CREATE POLICY own_updates ON ctx_team.transcripts FOR UPDATE USING (EXISTS (
  SELECT 1 FROM ctx_team.sessions s
  WHERE s.team_id = transcripts.team_id AND s.id = transcripts.session_id AND s.author = current_user))
  WITH CHECK (EXISTS (
  SELECT 1 FROM ctx_team.sessions s
  WHERE s.team_id = transcripts.team_id AND s.id = transcripts.session_id AND s.author = current_user));
CREATE POLICY own_deletes ON ctx_team.transcripts FOR DELETE USING (EXISTS (
  SELECT 1 FROM ctx_team.sessions s
  WHERE s.team_id = transcripts.team_id AND s.id = transcripts.session_id AND s.author = current_user));
`;

// Team search's candidates (src/team/search.ts). Under row-level security PostgreSQL may not use an index for an
// operator that is not leakproof, and full-text match (@@) is not: a member's own query scans every chunk of every team
// it can see, growing with the table (bench/run.ts team-search; docs/team.md). This function runs as its owner (the
// administrator, whose policy is `true`, so the GIN index serves it) and does the one check row-level security did: the
// team must be one of the calling login's teams (member_teams(session_user)); another team's id returns nothing.
// Ranking every chunk that holds one of the query's words costs time in proportion to them (ts_rank reads each one's
// tsvector; bench/run.ts team-search), so at most 4,000 chunks holding ALL the words and 4,000 holding ANY are ranked,
// the best `p_limit` of them returned (a chunk with every word is always a candidate while there are fewer than 4,000
// such). Only the search columns come back; sessions, projects and members are still read under the members' policies.
const TEAM_SEARCH_FUNCTION = `
CREATE FUNCTION ctx_team.search_chunks(p_team bigint, p_all tsquery, p_any tsquery, p_limit integer)
  RETURNS TABLE (session_id text, source text, chunk_index integer, text text, memory_type text, last_uuid text,
                 rank real)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
    WITH allowed AS (
      SELECT p_team AS team WHERE p_team IN (SELECT ctx_team.member_teams(session_user))
    ), every_word AS (
      SELECT c.session_id, c.source, c.chunk_index, ts_rank(c.search, p_any) AS rank
        FROM ctx_team.chunks c, allowed WHERE c.team_id = allowed.team AND c.search @@ p_all LIMIT 4000
    ), any_word AS (
      SELECT c.session_id, c.source, c.chunk_index, ts_rank(c.search, p_any) AS rank
        FROM ctx_team.chunks c, allowed WHERE c.team_id = allowed.team AND c.search @@ p_any LIMIT 4000
    ), best AS (
      SELECT * FROM (SELECT * FROM every_word UNION SELECT * FROM any_word) pool
       ORDER BY rank DESC LIMIT least(greatest(p_limit, 0), 2000)
    )
    SELECT c.session_id, c.source, c.chunk_index, c.text, c.memory_type, c.last_uuid, best.rank
      FROM best JOIN ctx_team.chunks c ON c.team_id = p_team AND c.session_id = best.session_id
                                      AND c.source = best.source AND c.chunk_index = best.chunk_index
     ORDER BY best.rank DESC
  $$;
REVOKE ALL ON FUNCTION ctx_team.search_chunks(bigint, tsquery, tsquery, integer) FROM PUBLIC;
`;

// A project row per author (issue 31): under version 1 a project row belonged to whoever added it first and every later
// sharer's sessions pointed at it, so its adder (who may UPDATE their own row) chose the repo_path other members' forks
// landed in. Now a member's sessions hang only on a row that member added: projects are unique per (team, added_by,
// remote, path), and a composite foreign key ties a session's (team, project, author) to the project's (team, id,
// added_by), checked by PostgreSQL past row-level security, so no policy or client can point a session at another
// member's row. Existing sessions on another member's row get a row of their author's own, with the same identity.
const PROJECTS_PER_AUTHOR = `
ALTER TABLE ctx_team.projects DROP CONSTRAINT projects_team_id_remote_url_repo_path_key;
ALTER TABLE ctx_team.projects ADD CONSTRAINT projects_per_author UNIQUE (team_id, added_by, remote_url, repo_path);
ALTER TABLE ctx_team.projects ADD CONSTRAINT projects_team_id_id_added_by UNIQUE (team_id, id, added_by);
INSERT INTO ctx_team.projects (team_id, remote_url, repo_path, added_by)
  SELECT DISTINCT s.team_id, p.remote_url, p.repo_path, s.author
    FROM ctx_team.sessions s JOIN ctx_team.projects p ON p.team_id = s.team_id AND p.id = s.project_id
   WHERE p.added_by <> s.author
  ON CONFLICT (team_id, added_by, remote_url, repo_path) DO NOTHING;
UPDATE ctx_team.sessions s SET project_id = mine.id
  FROM ctx_team.projects p, ctx_team.projects mine
 WHERE p.team_id = s.team_id AND p.id = s.project_id AND p.added_by <> s.author
   AND mine.team_id = s.team_id AND mine.added_by = s.author
   AND mine.remote_url = p.remote_url AND mine.repo_path = p.repo_path;
ALTER TABLE ctx_team.sessions ADD CONSTRAINT sessions_project_of_author
  FOREIGN KEY (team_id, project_id, author) REFERENCES ctx_team.projects (team_id, id, added_by);
`;

/** A trigger's transition rows (`c`) joined to their session (`s`), whose author they are counted under. */
const WITH_AUTHOR = "c JOIN ctx_team.sessions s ON s.team_id = c.team_id AND s.id = c.session_id";

/**
 * Migration 5's counting statement: adds (`sign` 1) or removes (-1) the counted chunks `c` of `from` (those with
 * terms), each under `author`, to ctx_team.corpus_stats and ctx_team.term_stats. Runs inside the trigger functions.
 * The (term, author) sums are hashed first and only they are sorted (the rows are written in key order, so two
 * such statements do not deadlock on each other; transactions of several can, docs/team.md says when): sorting
 * every chunk's terms cost twice as much (a push of 1,600 chunks: ~0.5 s against ~0.9 s, where the chunks' own
 * INSERT costs ~0.8 s).
 */
function countTermsSql(sign: "1" | "-1", from: string, author: string, where = "true"): string {
  return `WITH counted AS (
      SELECT c.team_id, ${author} AS author, c.terms, least(c.term_tokens, char_length(c.text))::bigint AS tokens
        FROM ${from} WHERE ${where} AND c.terms IS NOT NULL AND c.term_tokens IS NOT NULL
         -- A chunk listing more terms than its text could hold is not counted: ctx's tokens never outnumber twice the
         -- text's characters ('aB' gives three), so an honest chunk always is, and a tiny one cannot claim a vocabulary.
         AND cardinality(c.terms) <= 2 * char_length(c.text)
    ), corpus AS (
      INSERT INTO ctx_team.corpus_stats AS x (team_id, author, chunks, tokens)
        SELECT c.team_id, c.author, ${sign} * count(*), ${sign} * sum(c.tokens)
          FROM counted c GROUP BY c.team_id, c.author ORDER BY c.team_id, c.author
        ON CONFLICT (team_id, author) DO UPDATE SET chunks = x.chunks + excluded.chunks, tokens = x.tokens + excluded.tokens
    ), terms AS MATERIALIZED (
      SELECT c.team_id, t.term, c.author, count(*) AS docs
        FROM counted c,
             unnest(ARRAY(SELECT DISTINCT u.term FROM unnest(c.terms) AS u(term)
                           WHERE char_length(u.term) BETWEEN 1 AND 256)) AS t(term)
       GROUP BY c.team_id, t.term, c.author
    )
    INSERT INTO ctx_team.term_stats AS x (team_id, term, author, docs)
      SELECT t.team_id, t.term, t.author, ${sign} * t.docs FROM terms t ORDER BY t.team_id, t.term, t.author
      ON CONFLICT (team_id, term, author) DO UPDATE SET docs = x.docs + excluded.docs;`;
}

// The team's own term statistics (issue 31, docs/team.md "Search"): team chunks are scored with BM25 over the
// team's corpus, not the searching machine's index, so a chunk scores the same for every member, one who has just
// joined included. The tokens are ctx's own (core/search/tokens.ts, stemmed), which PostgreSQL cannot compute: the
// pushing client sends each chunk's distinct tokens (`terms`) and token count (`term_tokens`) with the chunk, and
// triggers owned by the administrator (SECURITY DEFINER) count them into per-author rows, which members may only
// read. A member therefore moves the statistics only by writing chunks of their own sessions (what row-level security
// already lets them do), and only by what a chunk holding those words would: each term counts once per chunk and the
// token count is capped at the text's length. Rows are per author so that members pushing at once never wait on one
// another's row locks; a search sums them. Chunks pushed before this version have `terms` NULL and are not counted
// until `ctx team migrate` fills them in (src/team/term-stats.ts: the administrator's ctx tokenizes the stored texts).
// A session's delete (unshare, forget) uncounts its chunks before the cascade removes them, while its author is known.
const TERM_STATISTICS = `
ALTER TABLE ctx_team.chunks ADD COLUMN terms text[], ADD COLUMN term_tokens integer CHECK (term_tokens >= 0);
CREATE INDEX chunks_uncounted ON ctx_team.chunks (team_id) WHERE terms IS NULL;

CREATE TABLE ctx_team.term_stats (
  team_id bigint NOT NULL REFERENCES ctx_team.teams(id) ON DELETE CASCADE,
  term text NOT NULL,
  author name NOT NULL,
  docs bigint NOT NULL,
  PRIMARY KEY (team_id, term, author)
);
CREATE TABLE ctx_team.corpus_stats (
  team_id bigint NOT NULL REFERENCES ctx_team.teams(id) ON DELETE CASCADE,
  author name NOT NULL,
  chunks bigint NOT NULL,
  tokens bigint NOT NULL,
  PRIMARY KEY (team_id, author)
);
ALTER TABLE ctx_team.term_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.term_stats FORCE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.corpus_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE ctx_team.corpus_stats FORCE ROW LEVEL SECURITY;
CREATE POLICY administrator ON ctx_team.term_stats TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY administrator ON ctx_team.corpus_stats TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY team_reads ON ctx_team.term_stats FOR SELECT
  USING (team_id IN (SELECT ctx_team.member_teams(current_user)));
CREATE POLICY team_reads ON ctx_team.corpus_stats FOR SELECT
  USING (team_id IN (SELECT ctx_team.member_teams(current_user)));

-- Counting is one statement per trigger: each chunk's distinct terms (a term counts once per chunk, and one longer
-- than any token ctx makes not at all), its token count capped at its text's length, summed per author.
CREATE FUNCTION ctx_team.chunk_terms_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
  BEGIN
    ${countTermsSql("1", `new_rows ${WITH_AUTHOR}`, "s.author")}
    RETURN NULL;
  END
  $$;
CREATE FUNCTION ctx_team.chunk_terms_deleted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
  BEGIN
    -- A chunk whose session is already gone was uncounted with it (session_terms_uncounted).
    ${countTermsSql("-1", `old_rows ${WITH_AUTHOR}`, "s.author")}
    RETURN NULL;
  END
  $$;
CREATE FUNCTION ctx_team.chunk_terms_updated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
  BEGIN
    ${countTermsSql("-1", `old_rows ${WITH_AUTHOR}`, "s.author")}
    ${countTermsSql("1", `new_rows ${WITH_AUTHOR}`, "s.author")}
    RETURN NULL;
  END
  $$;
CREATE FUNCTION ctx_team.session_terms_uncounted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
  BEGIN
    ${countTermsSql("-1", "ctx_team.chunks c", "OLD.author", "c.team_id = OLD.team_id AND c.session_id = OLD.id")}
    RETURN OLD;
  END
  $$;
REVOKE ALL ON FUNCTION ctx_team.chunk_terms_inserted() FROM PUBLIC;
REVOKE ALL ON FUNCTION ctx_team.chunk_terms_deleted() FROM PUBLIC;
REVOKE ALL ON FUNCTION ctx_team.chunk_terms_updated() FROM PUBLIC;
CREATE TRIGGER terms_inserted AFTER INSERT ON ctx_team.chunks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ctx_team.chunk_terms_inserted();
CREATE TRIGGER terms_updated AFTER UPDATE ON ctx_team.chunks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ctx_team.chunk_terms_updated();
CREATE TRIGGER terms_deleted AFTER DELETE ON ctx_team.chunks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ctx_team.chunk_terms_deleted();
CREATE TRIGGER terms_uncounted BEFORE DELETE ON ctx_team.sessions
  FOR EACH ROW EXECUTE FUNCTION ctx_team.session_terms_uncounted();
REVOKE ALL ON FUNCTION ctx_team.session_terms_uncounted() FROM PUBLIC;
`;

// The author's own tags and note on a session (issue 34, the session library): pushed with the session row, never for a
// session another member authored (push-write.ts leaves those out whole), the note redacted before it was stored.
const SESSION_ANNOTATIONS = `
ALTER TABLE ctx_team.sessions ADD COLUMN IF NOT EXISTS labels text[] NOT NULL DEFAULT '{}'::text[];
ALTER TABLE ctx_team.sessions ADD COLUMN IF NOT EXISTS note text;
`;

/**
 * Migration 7's join of a trigger's transition rows (`c`) to their session (`s`): one primary-key probe per chunk.
 * The planner knows nothing of a transition table's size, so WITH_AUTHOR's plain join was planned as a hash join
 * over a scan of every session on the server, in every push statement (bench/team-scale.bench.ts: a cost that grew
 * with the library). LIMIT 1 keeps the subquery from being pulled up into that join; a chunk whose session is gone
 * still has no row.
 */
const WITH_AUTHOR_BY_KEY = `c CROSS JOIN LATERAL (
      SELECT s.author FROM ctx_team.sessions s WHERE s.team_id = c.team_id AND s.id = c.session_id LIMIT 1) s`;

// Costs that grew with the team library (issue 36, bench/team-scale.bench.ts; docs/team.md "At scale"):
// - chunks_search's pending list. A GIN index with fastupdate collects new entries in an unsorted list of up to
//   gin_pending_list_limit (4 MB by default) until a vacuum merges them; every search reads all of it, and the planner,
//   pricing those pages, preferred reading every chunk's tsvector (TOASTed, so the heap it prices is a tenth of what is
//   read): 355 ms for a search of 13,683 chunks, 44 ms once the list was merged. 256 kB keeps the list a few dozen
//   chunks long; the member whose push fills it merges it, in ~40-chunk steps.
// - the statistics triggers' join of the pushed chunks to their sessions (WITH_AUTHOR_BY_KEY).
// The functions are replaced in place: their owner, grants and triggers stay.
const SCALE_FIXES = `
ALTER INDEX ctx_team.chunks_search SET (gin_pending_list_limit = 256);
SELECT pg_catalog.gin_clean_pending_list('ctx_team.chunks_search'::pg_catalog.regclass);
CREATE OR REPLACE FUNCTION ctx_team.chunk_terms_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
  BEGIN
    ${countTermsSql("1", `new_rows ${WITH_AUTHOR_BY_KEY}`, "s.author")}
    RETURN NULL;
  END
  $$;
CREATE OR REPLACE FUNCTION ctx_team.chunk_terms_deleted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
  BEGIN
    -- A chunk whose session is already gone was uncounted with it (session_terms_uncounted).
    ${countTermsSql("-1", `old_rows ${WITH_AUTHOR_BY_KEY}`, "s.author")}
    RETURN NULL;
  END
  $$;
CREATE OR REPLACE FUNCTION ctx_team.chunk_terms_updated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
  AS $$
  BEGIN
    ${countTermsSql("-1", `old_rows ${WITH_AUTHOR_BY_KEY}`, "s.author")}
    ${countTermsSql("1", `new_rows ${WITH_AUTHOR_BY_KEY}`, "s.author")}
    RETURN NULL;
  END
  $$;
`;

// The candidates' scans by the GIN index's bitmap, whatever the planner prices (issue 36, docs/team.md "At scale").
// With the function's LIMIT 4,000 and a query word it knows to be common, the planner expects 4,000 matches early in
// a scan in table order (or in chunks_pkey's, by team) and picks it over a bitmap of every match; that scan tests
// each chunk by reading (detoasting) its tsvector: at 439,000 chunks 170-400 ms for a search whose bitmap takes ~40.
// Called through this function, PostgreSQL 15 mostly picked the bitmap already; the settings make it the plan
// whatever the server's version, statistics or costs. The bitmap's heap scan needs no recheck (a tsquery without
// weights or phrases is exact in the GIN index), so only the ranked candidates' tsvectors are read. The function's
// own settings hold inside it alone.
const SEARCH_BY_BITMAP = `
ALTER FUNCTION ctx_team.search_chunks(bigint, tsquery, tsquery, integer) SET enable_bitmapscan = on;
ALTER FUNCTION ctx_team.search_chunks(bigint, tsquery, tsquery, integer) SET enable_seqscan = off;
ALTER FUNCTION ctx_team.search_chunks(bigint, tsquery, tsquery, integer) SET enable_indexscan = off;
`;

// Each term's count in each chunk (issue 36, docs/team.md "Search"): a search scores its candidates with BM25, which
// needs how often each chunk holds each query term, and tokenizing the candidates' texts for it (~300 chunks, ~1 MB)
// was a third of a warm search at 10 members × 10,000 sessions. The pushing client now sends, with `terms`, each
// one's count in the same order; the search reads the counts of the query's terms alone (src/team/search.ts). A
// teammate's counts are as untrusted as their text (which they could equally write to say anything): one per term,
// each at least 1 (checked here), and the search caps each at the chunk's tokens, and those at twice the text's
// characters (more than ctx's tokenizer ever gives: term_stats' bound). Chunks pushed before have
// `term_counts` NULL and are scored from their text as before, until their session is pushed again or `ctx team
// migrate` fills them in (src/team/term-stats.ts).
const TERM_COUNTS = `
ALTER TABLE ctx_team.chunks ADD COLUMN term_counts integer[],
  ADD CONSTRAINT chunks_term_counts CHECK (term_counts IS NULL OR
    (pg_catalog.cardinality(term_counts) = pg_catalog.cardinality(terms) AND 0 < ALL (term_counts)));
CREATE INDEX chunks_without_counts ON ctx_team.chunks (team_id) WHERE term_counts IS NULL;
`;

// A query of one word (one lexeme once normalised) is held by a chunk that holds any of its words exactly when that
// chunk holds all of them, so before version 10 its candidates were found and ranked twice: the same (up to) 4,000
// chunks' tsvectors read by ts_rank for every_word and again for any_word, the UNION then dropping the copies (issue
// 36: at 10 members x 10,000 sessions the function's p95 over the team-scale bench's queries went from 133 to 80 ms,
// the candidates the same). Now any_word runs only for a query whose any-word form differs from its all-words form.
// The function is otherwise version 3's, with version 8's settings (CREATE OR REPLACE sets them anew), its owner and
// grants kept.
const ONE_WORD_RANKED_ONCE = `
CREATE OR REPLACE FUNCTION ctx_team.search_chunks(p_team bigint, p_all tsquery, p_any tsquery, p_limit integer)
  RETURNS TABLE (session_id text, source text, chunk_index integer, text text, memory_type text, last_uuid text,
                 rank real)
  LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, pg_temp
  SET enable_bitmapscan = on
  SET enable_seqscan = off
  SET enable_indexscan = off
  AS $$
    WITH allowed AS (
      SELECT p_team AS team WHERE p_team IN (SELECT ctx_team.member_teams(session_user))
    ), every_word AS (
      SELECT c.session_id, c.source, c.chunk_index, ts_rank(c.search, p_any) AS rank
        FROM ctx_team.chunks c, allowed WHERE c.team_id = allowed.team AND c.search @@ p_all LIMIT 4000
    ), any_word AS (
      SELECT c.session_id, c.source, c.chunk_index, ts_rank(c.search, p_any) AS rank
        FROM ctx_team.chunks c, allowed
       WHERE p_any <> p_all AND c.team_id = allowed.team AND c.search @@ p_any LIMIT 4000
    ), best AS (
      SELECT * FROM (SELECT * FROM every_word UNION SELECT * FROM any_word) pool
       ORDER BY rank DESC LIMIT least(greatest(p_limit, 0), 2000)
    )
    SELECT c.session_id, c.source, c.chunk_index, c.text, c.memory_type, c.last_uuid, best.rank
      FROM best JOIN ctx_team.chunks c ON c.team_id = p_team AND c.session_id = best.session_id
                                      AND c.source = best.source AND c.chunk_index = best.chunk_index
     ORDER BY best.rank DESC
  $$;
`;

// Ranking a candidate means reading its tsvector, ~3.6 kB stored out of line (TOAST; too dense to compress): at 10
// members x 10,000 sessions ~10 µs a chunk, the function's main cost. A query of more words than one found up to 4,000
// chunks holding any of them, in table order, and read every one's tsvector to rank it: for the bench's queries that
// side was full (4,000) in nearly every search. Version 11 takes 2,000 of them. The chunks holding every word are still
// taken up to 4,000 (halving those cost 5 of 100 first results against scoring every match). Against a search that
// sends and scores every match (no limit), 100 queries: the same first result 61 -> 60 times, top-5 places kept 258 ->
// 250 of 500; the candidates' statement p50 ~100 -> ~55 ms (docs/team.md "At scale"). Otherwise version 10's function.
const FEWER_ANY_WORD_CANDIDATES = replacedOnce(
  ONE_WORD_RANKED_ONCE,
  "c.search @@ p_any LIMIT 4000",
  "c.search @@ p_any LIMIT 2000",
);

// A new server process maps each page of shared_buffers it touches on first use (a page fault, ~20 µs on a virtual
// machine), so a `ctx search --team` process, whose connection is new, pays for every page its candidates' statement
// touches: each ranked chunk's heap row and its tsvector's TOAST chunks and index pages, up to 4 pages a chunk (fewer
// where neighbours share pages). Version 12 takes 1,000 of the any-word side's matches, not 2,000. At 10 members x
// 1,000 sessions, the function alone on a new connection: 99-171 against 139-188 ms for the queries that fill that
// side (3,245-5,137 page faults against 4,038-6,952); 15 `ctx search --team --json` processes, three rounds of each
// version in turn: p50 437-447 against 472-480 ms. Against a search that scores every match, 100 queries on version
// 10's server (docs/team.md "At scale"): the same first result 62 and 60 times, top-5 places kept 251 and 250 of 500
// (1,000 and 2,000 any-word candidates). Otherwise version 11's function.
const FEWEST_ANY_WORD_CANDIDATES = replacedOnce(
  FEWER_ANY_WORD_CANDIDATES,
  "c.search @@ p_any LIMIT 2000",
  "c.search @@ p_any LIMIT 1000",
);

// Up to version 12 the chunks holding only some of a query's words were its first 1,000 matches of any word in table
// order, each ranked by reading its tsvector: for the queries of the team-scale bench that side was ~90% of the
// function's time (few chunks hold every word of a query; 16,000-170,000 at 10 members x 10,000 sessions hold one),
// and a chunk holding all the words but one, the best partial match, was found only if it came among the first 1,000.
// Version 13 takes the partial matches best first and only as many as the search asks for: when fewer than p_limit
// chunks hold every word, the chunks holding all but one of a query of three to eight distinct words (one tsquery:
// the OR of each word left out in turn; it grows with the square of the words, and the index checks it against every
// chunk holding any of them: a query of twelve common words took 527 ms warm against version 12's 416), then, when
// those are still fewer than p_limit, the chunks holding any word; each side at most min(p_limit, 1,000). At 10 x 10,000, 30 queries on a new connection each, the function went from
// p50 / p95 180 / 321 to 113 / 245 ms; against a search that scores every match, 100 queries through `ctx search
// --scope team` kept the same first result 38 times (version 12: 40) and 198 of 490 top-5 places (198) (docs/team.md
// "At scale"). Otherwise version 12's function.
const PARTIAL_MATCHES_BEST_FIRST = replacedOnce(
  replacedOnce(
    FEWEST_ANY_WORD_CANDIDATES,
    `
    ), every_word AS (`,
    `
    ), words AS (
      SELECT ARRAY(SELECT DISTINCT w.word FROM unnest(string_to_array(p_all::text, ' & ')) AS w(word)) AS list
    ), most AS (
      SELECT CASE WHEN p_any <> p_all AND cardinality(words.list) BETWEEN 3 AND 8 THEN
               (SELECT string_agg('(' || array_to_string(array_remove(words.list, w.word), ' & ') || ')', ' | ')
                  FROM unnest(words.list) AS w(word))::tsquery
             END AS query
        FROM words
    ), every_word AS (`,
  ),
  `
    ), any_word AS (
      SELECT c.session_id, c.source, c.chunk_index, ts_rank(c.search, p_any) AS rank
        FROM ctx_team.chunks c, allowed
       WHERE p_any <> p_all AND c.team_id = allowed.team AND c.search @@ p_any LIMIT 1000
    ), best AS (
      SELECT * FROM (SELECT * FROM every_word UNION SELECT * FROM any_word) pool`,
  `
    ), all_but_one AS (
      SELECT c.session_id, c.source, c.chunk_index, ts_rank(c.search, p_any) AS rank
        FROM ctx_team.chunks c, allowed, most
       WHERE most.query IS NOT NULL AND (SELECT count(*) FROM every_word) < p_limit
         AND c.team_id = allowed.team AND c.search @@ most.query
       LIMIT least(greatest(p_limit, 0), 1000)
    ), held AS (
      SELECT * FROM every_word UNION SELECT * FROM all_but_one
    ), any_word AS (
      SELECT c.session_id, c.source, c.chunk_index, ts_rank(c.search, p_any) AS rank
        FROM ctx_team.chunks c, allowed
       WHERE p_any <> p_all AND (SELECT count(*) FROM held) < p_limit
         AND c.team_id = allowed.team AND c.search @@ p_any
       LIMIT least(greatest(p_limit, 0), 1000)
    ), best AS (
      SELECT * FROM (SELECT * FROM held UNION SELECT * FROM any_word) pool`,
);

// A query whose every word many chunks hold (16,000 for three words of the team-scale bench at 10 members x 10,000
// sessions) had its first 4,000 such chunks in table order ranked, each one's heap row and TOASTed tsvector read: a new
// server process read ~20,000 buffers for it, ~310 ms of I/O on a cold cache (issue 36), the slowest cold searches.
// Version 14 ranks 2,000 of them. Against a search that scores every chunk holding every word (none left out, all
// sent and scored with BM25), 100 queries of the bench's kind through `ctx search --scope team`: the same first result
// 85 times with 4,000 and with 2,000 (83 with 1,000), top-5 places kept 412 and 411 of 500 (393); the function's time
// in 30 cold `ctx search --team --json` processes, the versions in turn on one server, p95 403 -> 321 ms (docs/team.md
// "At scale"). Otherwise version 13's function.
const FEWER_EVERY_WORD_CANDIDATES = replacedOnce(
  PARTIAL_MATCHES_BEST_FIRST,
  "c.search @@ p_all LIMIT 4000",
  "c.search @@ p_all LIMIT 2000",
);

// Each chunk's tsvector kept in its row (issue 36, docs/team.md "At scale"). A chunk of ~3 kB has a tsvector of ~3-4 kB,
// and PostgreSQL moved it out of the row (TOAST) with the text and the terms: ranking a candidate read its heap page,
// the TOAST index and one or two TOAST pages, ~5 buffers where its row is one. At 10 members x 10,000 sessions a
// one-word query's 2,000 ranked candidates read 10,400 buffers (2,000 from the row alone), most of them from outside
// the server's buffers on a cold cache. With STORAGE MAIN the tsvector is compressed in the row and leaves it only when
// the row would not fit a page; the text, terms and term counts (read for the ~300 candidates a search returns) still go
// first. The short keys and labels are MAIN too: PostgreSQL moves a row's EXTENDED values out, largest first, until it
// is under 2 kB, and a row holding a 3 kB tsvector never is, so a chunk's session id (hashed by the function's UNION
// for every candidate) would have gone to TOAST as well. Applies to the rows written from now on; the rows already on
// the server move when the table is rewritten (`VACUUM (FULL, ANALYZE) ctx_team.chunks`, which `ctx team migrate`
// advises; docs/team.md). Body of the search function unchanged (version 14's).
const TSVECTOR_IN_ROW = `
ALTER TABLE ctx_team.chunks
  ALTER COLUMN search SET STORAGE MAIN,
  ALTER COLUMN session_id SET STORAGE MAIN,
  ALTER COLUMN source SET STORAGE MAIN,
  ALTER COLUMN memory_type SET STORAGE MAIN,
  ALTER COLUMN last_uuid SET STORAGE MAIN,
  ALTER COLUMN languages SET STORAGE MAIN;
`;

// The candidates with each one's counts of the scored terms (issue 36, docs/team.md "At scale"). Up to version 15 the
// search's statement read them by a second lookup of each candidate's row (chunks_pkey), then for each scored term
// called array_position on the chunk's terms, a ~2.4 kB array kept in TOAST: every call read (detoasted) the array
// again. At 10 members x 10,000 sessions a three-word query's 300 candidates read 9,000 buffers for their counts, ~56
// ms of a new server process's 139 (the function itself 2,000). search_candidates is version 14's search_chunks
// (body, settings, owner; search_chunks stays for the ctx releases that call it) whose final SELECT, reading each
// candidate's row anyway, also gives its counts of the scored terms (p_terms, in their order; 0 for a term the chunk
// lacks; NULL without counts, a chunk pushed before version 9, or without p_terms) and its tokens. Its terms and
// counts are read once: `unpacked` (OFFSET 0 keeps PostgreSQL from folding it into the counts' subquery) holds them
// as plain arrays (`|| '{}'` returns its input read whole), which each term's array_position then reads; unnesting
// them instead cost 30 ms more at 300 candidates (a new server process's function p50 129 against 92 ms without
// counts; this way 110 against 101). A teammate's row is as untrusted as before: the client caps the tokens at twice
// the text's characters and each count at the tokens (src/team/search.ts).
const COUNTED_CANDIDATES = [
  [
    `CREATE OR REPLACE FUNCTION ctx_team.search_chunks(p_team bigint, p_all tsquery, p_any tsquery, p_limit integer)
  RETURNS TABLE (session_id text, source text, chunk_index integer, text text, memory_type text, last_uuid text,
                 rank real)`,
    `CREATE FUNCTION ctx_team.search_candidates(p_team bigint, p_all tsquery, p_any tsquery, p_limit integer,
                                            p_terms text[])
  RETURNS TABLE (session_id text, source text, chunk_index integer, text text, memory_type text, last_uuid text,
                 rank real, counts integer[], tokens integer)`,
  ],
  [
    `
    SELECT c.session_id, c.source, c.chunk_index, c.text, c.memory_type, c.last_uuid, best.rank
      FROM best`,
    `
    SELECT c.session_id, c.source, c.chunk_index, c.text, c.memory_type, c.last_uuid, best.rank,
           CASE WHEN c.term_counts IS NOT NULL AND c.term_tokens IS NOT NULL AND cardinality(p_terms) > 0 THEN
             ARRAY(SELECT coalesce(unpacked.counts[array_position(unpacked.terms, q.term)], 0)
                     FROM unnest(p_terms) WITH ORDINALITY AS q(term, i) ORDER BY q.i)
           END AS counts,
           c.term_tokens AS tokens
      FROM best`,
  ],
  [
    `AND c.source = best.source AND c.chunk_index = best.chunk_index
     ORDER BY best.rank DESC`,
    `AND c.source = best.source AND c.chunk_index = best.chunk_index
           CROSS JOIN LATERAL (SELECT c.terms || '{}'::text[] AS terms, c.term_counts || '{}'::integer[] AS counts
                                OFFSET 0) unpacked
     ORDER BY best.rank DESC`,
  ],
  [
    "$$;\n",
    "$$;\nREVOKE ALL ON FUNCTION ctx_team.search_candidates(bigint, tsquery, tsquery, integer, text[]) FROM PUBLIC;\n",
  ],
].reduce((sql, [from, to]) => replacedOnce(sql, from as string, to as string), FEWER_EVERY_WORD_CANDIDATES);

/** `sql` with `from`, which it must hold once, made `to`: a later edit of the text it derives from cannot pass unseen. */
function replacedOnce(sql: string, from: string, to: string): string {
  if (sql.split(from).length !== 2) throw new Error(`migration text: expected one ${JSON.stringify(from)}`);
  return sql.replace(from, () => to); // a function: `to` is taken as it is (a string would read `$$` as `$`)
}

export const TEAM_MIGRATIONS: readonly TeamMigration[] = [
  {
    version: 1,
    name: "teams, members, projects, sessions, chunks, transcripts; row-level security",
    sql: INITIAL_SCHEMA,
  },
  {
    version: 3,
    name: "search_chunks: team search's full-text candidates through the GIN index",
    sql: TEAM_SEARCH_FUNCTION,
  },
  {
    version: 4,
    name: "projects per author: a session's project row is one its author added",
    sql: PROJECTS_PER_AUTHOR,
  },
  {
    version: 5,
    name: "term statistics: the team's BM25 statistics, counted from the terms pushed with each chunk",
    sql: TERM_STATISTICS,
  },
  {
    version: 6,
    name: "session annotations: the author's tags and note on each session row",
    sql: SESSION_ANNOTATIONS,
  },
  {
    version: 7,
    name: "scale: a short pending list for chunks_search; statistics triggers read sessions by key",
    sql: SCALE_FIXES,
  },
  {
    version: 8,
    name: "search_chunks scans by the GIN index's bitmap at any size",
    sql: SEARCH_BY_BITMAP,
  },
  {
    version: 9,
    name: "term counts: each chunk's count of each of its terms, so a search scores it without tokenizing its text",
    sql: TERM_COUNTS,
  },
  {
    version: 10,
    name: "search_chunks finds and ranks a one-word query's candidates once",
    sql: ONE_WORD_RANKED_ONCE,
  },
  {
    version: 11,
    name: "search_chunks ranks 2,000 of the chunks holding only some of a query's words, not 4,000",
    sql: FEWER_ANY_WORD_CANDIDATES,
  },
  {
    version: 12,
    name: "search_chunks ranks 1,000 of the chunks holding only some of a query's words, not 2,000",
    sql: FEWEST_ANY_WORD_CANDIDATES,
  },
  {
    version: 13,
    name: "search_chunks takes a query's partial matches best first, only as many as the search asks for",
    sql: PARTIAL_MATCHES_BEST_FIRST,
  },
  {
    version: 14,
    name: "search_chunks ranks 2,000 of the chunks holding every word of a query, not 4,000",
    sql: FEWER_EVERY_WORD_CANDIDATES,
  },
  {
    version: 15,
    name: "chunks keep their tsvector (and short keys) in the row, not in TOAST",
    sql: TSVECTOR_IN_ROW,
  },
  {
    version: 16,
    name: "search_candidates: search_chunks' candidates with their counts of the scored terms, each row read once",
    sql: COUNTED_CANDIDATES,
  },
];

/** The schema version this ctx writes and expects: the last migration's (versions may leave gaps). */
export const TEAM_SCHEMA_VERSION = TEAM_MIGRATIONS.at(-1)?.version ?? 0;

/** The migrations still to apply on a server at `current`. */
export function pendingMigrations(current: number, migrations: readonly TeamMigration[] = TEAM_MIGRATIONS) {
  return migrations.filter((m) => m.version > current);
}

/** The tables a member reads and writes (their rights are granted per table by `ctx team add-member`). */
export const MEMBER_WRITABLE_TABLES = ["projects", "sessions", "chunks", "transcripts"] as const;
export const MEMBER_READABLE_TABLES = ["schema_version", "teams", "members"] as const;

/**
 * The GRANTs that let a role work as a member (row-level security then decides which rows). `role` must already
 * be a quoted identifier. Re-run after every migration, so a table added later reaches existing members.
 */
export function memberGrantStatements(role: string): string[] {
  const writable = MEMBER_WRITABLE_TABLES.map((t) => `${TEAM_SCHEMA}.${t}`).join(", ");
  const readable = MEMBER_READABLE_TABLES.map((t) => `${TEAM_SCHEMA}.${t}`).join(", ");
  return [
    `GRANT USAGE ON SCHEMA ${TEAM_SCHEMA} TO ${role}`,
    `GRANT SELECT ON ${readable} TO ${role}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${writable} TO ${role}`,
    `GRANT EXECUTE ON FUNCTION ${TEAM_SCHEMA}.member_teams(name) TO ${role}`,
    `GRANT EXECUTE ON FUNCTION ${TEAM_SCHEMA}.search_chunks(bigint, tsquery, tsquery, integer) TO ${role}`,
    `GRANT EXECUTE ON FUNCTION ${TEAM_SCHEMA}.search_candidates(bigint, tsquery, tsquery, integer, text[]) TO ${role}`,
    // Read only: the statistics are written by migration 5's triggers alone, as the administrator.
    `GRANT SELECT ON ${TEAM_SCHEMA}.term_stats, ${TEAM_SCHEMA}.corpus_stats TO ${role}`,
  ];
}
