// Team sessions put on the server directly with SQL, as the member who authored them (row-level security holds
// them to their own rows): the one place tests and benchmarks insert team rows by hand (search: the chunks; fork:
// the transcript). The real flow, `ctx team push` writing the same rows, is tests/e2e/team-flow.test.ts.
import { createHash } from "node:crypto";
import { gzipSync, zstdCompressSync } from "node:zlib";
import type { TeamClient } from "../../src/team/connect.ts";
import { chunkTermsParameters } from "../../src/team/term-stats.ts";

export interface TeamFixtureChunk {
  text: string;
  memoryType?: "PATTERN" | "WORKING_SOLUTION" | "WAITING";
  lastUuid?: string;
}

export interface TeamFixtureSession {
  id: string;
  /** The project's normalised remote (`github.com/acme/web`). */
  remote: string;
  repoPath?: string;
  title: string;
  branch?: string;
  startedAt?: Date;
  endedAt?: Date;
  /** Default: true. */
  forkable?: boolean;
  chunks?: TeamFixtureChunk[];
  /** The redacted transcript as pushed (uncompressed), stored for `ctx fork`; omitted: no transcript row. */
  transcript?: string;
  codec?: "gzip" | "zstd";
  /** Stored instead of the transcript's own SHA-256 (a damaged row). */
  sha256?: string;
}

/** The team's id by name, read as the member (null when it is not one of the member's teams). */
export async function teamIdOf(client: TeamClient, team: string): Promise<string | null> {
  const { rows } = await client.query<{ id: string }>("SELECT id FROM ctx_team.teams WHERE name = $1", [team]);
  return rows[0]?.id ?? null;
}

/** Inserts sessions (their project first, if new), their chunks and transcripts as the connected member, in one
 *  transaction. */
export async function insertTeamSessions(
  client: TeamClient,
  team: string,
  sessions: readonly TeamFixtureSession[],
): Promise<void> {
  const teamId = await teamIdOf(client, team);
  if (teamId === null) throw new Error(`not a member of team ${team}`);
  await client.query("BEGIN");
  try {
    const projects = new Map<string, string>();
    for (const session of sessions) {
      const key = `${session.remote}\n${session.repoPath ?? ""}`;
      let projectId = projects.get(key);
      if (projectId === undefined) {
        await client.query(
          "INSERT INTO ctx_team.projects (team_id, remote_url, repo_path) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
          [teamId, session.remote, session.repoPath ?? ""],
        );
        const found = await client.query<{ id: string }>(
          // The member's own row: a session hangs only on a project row its author added (migration 4).
          "SELECT id FROM ctx_team.projects WHERE team_id = $1 AND remote_url = $2 AND repo_path = $3 AND added_by = current_user",
          [teamId, session.remote, session.repoPath ?? ""],
        );
        projectId = found.rows[0]?.id as string;
        projects.set(key, projectId);
      }
      await client.query(
        `INSERT INTO ctx_team.sessions (team_id, id, project_id, title, branch, started_at, ended_at, message_count, forkable)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          teamId,
          session.id,
          projectId,
          session.title,
          session.branch ?? null,
          session.startedAt ?? null,
          session.endedAt ?? null,
          Math.max(2, (session.chunks ?? []).length * 2),
          session.forkable ?? true,
        ],
      );
    }
    // One statement for every chunk (COPY FROM is refused under row-level security).
    const chunks = sessions.flatMap((session) => (session.chunks ?? []).map((chunk, i) => ({ session, chunk, i })));
    await client.query(
      `INSERT INTO ctx_team.chunks (team_id, session_id, chunk_index, start_offset, first_message, last_message, text,
                                    memory_type, last_uuid, terms, term_tokens, term_counts)
       SELECT $1, s, i, i * 1000, i * 2, i * 2 + 1, t, m, u, string_to_array(w, ' '), n,
              string_to_array(k, ' ')::int[]
         FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[])
              AS x(s, i, t, m, u, w, n, k)`,
      [
        teamId,
        chunks.map((c) => c.session.id),
        chunks.map((c) => c.i),
        chunks.map((c) => c.chunk.text),
        chunks.map((c) => c.chunk.memoryType ?? null),
        chunks.map((c) => c.chunk.lastUuid ?? null),
        // The terms push sends with each chunk, which the server counts into the team's statistics (migration 5), and
        // their counts (migration 9).
        ...chunkTermsParameters(chunks.map((c) => c.chunk.text)),
      ],
    );
    for (const session of sessions) {
      if (session.transcript === undefined) continue;
      const raw = Buffer.from(session.transcript, "utf8");
      const codec = session.codec ?? "gzip";
      await client.query(
        `INSERT INTO ctx_team.transcripts (team_id, session_id, codec, raw_bytes, sha256, data)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          teamId,
          session.id,
          codec,
          raw.length,
          session.sha256 ?? createHash("sha256").update(raw).digest("hex"),
          codec === "gzip" ? gzipSync(raw) : zstdCompressSync(raw),
        ],
      );
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
