// The team library's client choice (docs/team.md): node-postgres (`pg`) against postgres.js (`postgres`), each on its
// fastest bulk path, inserting real-shaped chunk rows (~1 KB of text each, the generated tsvector column and its GIN
// index maintained, row-level security checking every row) into ctx's real schema on a throwaway local cluster, as a
// member role. rows/s per path, median of BENCH_RUNS runs; every run is checked for exactly its rows (none lost or
// duplicated). `pnpm bench team-client`; BENCH_TEAM_ROWS changes the row count (20,000).
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import postgres from "postgres";
import { connectTeam, type TeamClient } from "../src/team/connect.ts";
import { addTeamMember } from "../src/team/members.ts";
import { migrateTeamSchema } from "../src/team/migrate.ts";
import { startPgCluster } from "../tests/helpers/pg-cluster.ts";
import { buildVocabulary, codeBlock, createRng, paragraph } from "./synthetic-text.ts";

const ROWS = Number(process.env.BENCH_TEAM_ROWS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BATCH_ROWS = 5_000;

interface ChunkRow {
  chunkIndex: number;
  startOffset: number;
  text: string;
  tokenCount: number;
  hasCode: boolean;
}

function buildRows(count: number): ChunkRow[] {
  const rng = createRng(23);
  const vocabulary = buildVocabulary(rng, 20_000);
  const rows: ChunkRow[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const hasCode = rng.next() < 0.3;
    const text = hasCode
      ? `${paragraph(rng, vocabulary, 90)}\n\`\`\`\n${codeBlock(rng, vocabulary, 6)}\n\`\`\``
      : `${paragraph(rng, vocabulary, 110)}\n\t${paragraph(rng, vocabulary, 40)}`;
    rows.push({ chunkIndex: i, startOffset: offset, text, tokenCount: Math.ceil(text.length / 4), hasCode });
    offset += text.length * 3;
  }
  return rows;
}

const COLUMNS =
  "team_id, session_id, chunk_index, start_offset, first_message, last_message, text, token_count, has_code";
// PostgreSQL refuses COPY FROM into a table under row-level security for a role it applies to ("COPY FROM not
// supported with row-level security"): the COPY paths load a session-local temporary table, then INSERT … SELECT
// into ctx_team.chunks in the same transaction, where the policies check every row.
const LOAD_TABLE_SQL = `CREATE TEMP TABLE IF NOT EXISTS chunk_load (
  team_id bigint, session_id text, chunk_index int, start_offset bigint, first_message int, last_message int,
  text text, token_count int, has_code boolean) ON COMMIT DELETE ROWS`;
const COPY_SQL = `COPY chunk_load (${COLUMNS}) FROM STDIN`;
const FROM_LOAD_SQL = `INSERT INTO ctx_team.chunks (${COLUMNS}) SELECT ${COLUMNS} FROM chunk_load
  ON CONFLICT (team_id, session_id, source, chunk_index) DO NOTHING`;

/** COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyField = (value: string) =>
  value.replaceAll("\\", "\\\\").replaceAll("\t", "\\t").replaceAll("\n", "\\n").replaceAll("\r", "\\r");

function copyText(team: string, session: string, rows: readonly ChunkRow[]): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    let piece = "";
    for (const r of rows.slice(start, start + 500)) {
      piece += `${team}\t${session}\t${r.chunkIndex}\t${r.startOffset}\t${r.chunkIndex * 4}\t${r.chunkIndex * 4 + 3}\t${copyField(r.text)}\t${r.tokenCount}\t${r.hasCode ? "t" : "f"}\n`;
    }
    pieces.push(piece);
  }
  return pieces;
}

type Inserter = (team: string, session: string, rows: readonly ChunkRow[]) => Promise<void>;

async function newSession(member: TeamClient, team: string, project: string, id: string): Promise<void> {
  await member.query("INSERT INTO ctx_team.sessions (team_id, id, project_id) VALUES ($1, $2, $3)", [
    team,
    id,
    project,
  ]);
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function run(): Promise<Record<string, unknown>> {
  const started = await startPgCluster();
  if (!("cluster" in started)) return { skipped: started.skipReason };
  const cluster = started.cluster;
  try {
    await cluster.createRole("bench_member", "bench-pw");
    await cluster.createDatabase("bench");
    const options = { connectTimeoutMs: 5_000 };
    const admin = await connectTeam(cluster.adminUrl("bench"), options);
    await migrateTeamSchema(admin);
    await addTeamMember(admin, { role: "bench_member", team: "bench" });
    await admin.end();
    const url = cluster.url("bench_member", "bench-pw", "bench");
    const member = await connectTeam(url, options);
    const team = (await member.query<{ id: string }>("SELECT id FROM ctx_team.teams")).rows[0]?.id as string;
    await member.query("INSERT INTO ctx_team.projects (team_id, remote_url) VALUES ($1, 'github.com/acme/bench')", [
      team,
    ]);
    const project = (await member.query<{ id: string }>("SELECT id FROM ctx_team.projects")).rows[0]?.id as string;
    const rows = buildRows(ROWS);
    const bytes = rows.reduce((sum, r) => sum + Buffer.byteLength(r.text), 0);

    const pgCopy = new pg.Client({ connectionString: url });
    pgCopy.on("error", () => {});
    await pgCopy.connect();
    const js = postgres(url, { max: 1, onnotice: () => {} });

    const inserters: Record<string, Inserter> = {
      "pg COPY FROM STDIN (pg-copy-streams) into a temp table, then INSERT … SELECT": async (t, s, r) => {
        await pgCopy.query("BEGIN");
        await pgCopy.query(LOAD_TABLE_SQL);
        await pipeline(Readable.from(copyText(t, s, r)), pgCopy.query(copyFrom(COPY_SQL)));
        await pgCopy.query(FROM_LOAD_SQL);
        await pgCopy.query("COMMIT");
      },
      "pg INSERT … SELECT FROM unnest(arrays), one statement": async (t, s, r) => {
        await pgCopy.query(
          `INSERT INTO ctx_team.chunks (${COLUMNS})
           SELECT $1::bigint, $2::text, * FROM unnest($3::int[], $4::bigint[], $5::int[], $6::int[], $7::text[], $8::int[], $9::bool[])`,
          [
            t,
            s,
            r.map((x) => x.chunkIndex),
            r.map((x) => x.startOffset),
            r.map((x) => x.chunkIndex * 4),
            r.map((x) => x.chunkIndex * 4 + 3),
            r.map((x) => x.text),
            r.map((x) => x.tokenCount),
            r.map((x) => x.hasCode),
          ],
        );
      },
      "postgres.js COPY FROM STDIN (writable) into a temp table, then INSERT … SELECT": async (t, s, r) => {
        await js.begin(async (tx) => {
          await tx.unsafe(LOAD_TABLE_SQL);
          const stream = await tx.unsafe(COPY_SQL).writable();
          await pipeline(Readable.from(copyText(t, s, r)), stream);
          await tx.unsafe(FROM_LOAD_SQL);
        });
      },
      [`postgres.js multi-row INSERT, ${BATCH_ROWS} rows a statement`]: async (t, s, r) => {
        for (let start = 0; start < r.length; start += BATCH_ROWS) {
          const batch = r.slice(start, start + BATCH_ROWS).map((x) => ({
            team_id: t,
            session_id: s,
            chunk_index: x.chunkIndex,
            start_offset: x.startOffset,
            first_message: x.chunkIndex * 4,
            last_message: x.chunkIndex * 4 + 3,
            text: x.text,
            token_count: x.tokenCount,
            has_code: x.hasCode,
          }));
          await js`INSERT INTO ctx_team.chunks ${js(batch)}`;
        }
      },
    };

    // The transfer alone (into the temporary table, no tsvector, index or policy): what each client itself costs.
    const transfers: Record<string, Inserter> = {
      "pg COPY FROM STDIN into the temp table only": async (t, s, r) => {
        await pgCopy.query("BEGIN");
        await pgCopy.query(LOAD_TABLE_SQL);
        await pipeline(Readable.from(copyText(t, s, r)), pgCopy.query(copyFrom(COPY_SQL)));
        await pgCopy.query("COMMIT");
      },
      "postgres.js COPY FROM STDIN into the temp table only": async (t, s, r) => {
        await js.begin(async (tx) => {
          await tx.unsafe(LOAD_TABLE_SQL);
          const stream = await tx.unsafe(COPY_SQL).writable();
          await pipeline(Readable.from(copyText(t, s, r)), stream);
        });
      },
    };
    const transferResults: Record<string, unknown> = {};
    for (const [name, transfer] of Object.entries(transfers)) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        await transfer(team, "transfer", rows);
        times.push(performance.now() - start);
      }
      const ms = median(times);
      transferResults[name] = { medianMs: Math.round(ms), rowsPerSecond: Math.round((rows.length / ms) * 1000) };
    }

    const results: Record<string, unknown> = {};
    let sessionNumber = 0;
    for (const [name, insert] of Object.entries(inserters)) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const session = `bench-${sessionNumber++}`;
        await newSession(member, team, project, session);
        const start = performance.now();
        await insert(team, session, rows);
        times.push(performance.now() - start);
        const count = await member.query<{ n: string; distinct: string }>(
          "SELECT count(*) AS n, count(DISTINCT chunk_index) AS distinct FROM ctx_team.chunks WHERE session_id = $1",
          [session],
        );
        if (Number(count.rows[0]?.n) !== rows.length || Number(count.rows[0]?.distinct) !== rows.length) {
          throw new Error(`${name}: expected ${rows.length} rows, found ${count.rows[0]?.n}`);
        }
        // Keep the table the same size for every path: each run starts from the same state.
        await member.query("DELETE FROM ctx_team.sessions WHERE id = $1", [session]);
        await member.query("VACUUM ctx_team.chunks").catch(() => {});
      }
      const ms = median(times);
      results[name] = { medianMs: Math.round(ms), rowsPerSecond: Math.round((rows.length / ms) * 1000) };
      process.stderr.write(`bench: team-client ${name}: ${Math.round((rows.length / ms) * 1000)} rows/s\n`);
    }
    await pgCopy.end();
    await js.end();
    await member.end();
    return {
      rows: rows.length,
      averageTextBytes: Math.round(bytes / rows.length),
      runs: RUNS,
      results,
      transferOnly: transferResults,
    };
  } finally {
    await cluster.stop();
  }
}
