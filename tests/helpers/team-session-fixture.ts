// A teammate's pushed session, inserted with plain SQL as that teammate's own role (row-level security applies),
// for tests of what reads the team server (`ctx fork`). The real push (`ctx team push`) writes the same rows; this
// stays the one place tests insert them by hand.
import { createHash } from "node:crypto";
import { gzipSync, zstdCompressSync } from "node:zlib";
import type { TeamClient } from "../../src/team/connect.ts";

export interface TeamSessionFixture {
  teamId: string;
  id: string;
  remoteUrl: string;
  repoPath?: string;
  title?: string;
  /** The redacted transcript as pushed (uncompressed); omitted: pushed without one (not forkable). */
  transcript?: string;
  codec?: "gzip" | "zstd";
  /** Stored instead of the transcript's own SHA-256 (a damaged row). */
  sha256?: string;
}

export async function insertTeamSession(client: TeamClient, fixture: TeamSessionFixture): Promise<void> {
  const repoPath = fixture.repoPath ?? "";
  await client.query(
    `INSERT INTO ctx_team.projects (team_id, remote_url, repo_path) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [fixture.teamId, fixture.remoteUrl, repoPath],
  );
  const project = await client.query<{ id: string }>(
    "SELECT id FROM ctx_team.projects WHERE team_id = $1 AND remote_url = $2 AND repo_path = $3",
    [fixture.teamId, fixture.remoteUrl, repoPath],
  );
  await client.query(
    `INSERT INTO ctx_team.sessions (team_id, id, project_id, title, message_count, forkable)
     VALUES ($1, $2, $3, $4, 2, $5)`,
    [fixture.teamId, fixture.id, project.rows[0]?.id, fixture.title ?? "", fixture.transcript !== undefined],
  );
  if (fixture.transcript === undefined) return;
  const raw = Buffer.from(fixture.transcript, "utf8");
  const codec = fixture.codec ?? "gzip";
  const data = codec === "gzip" ? gzipSync(raw) : zstdCompressSync(raw);
  await client.query(
    `INSERT INTO ctx_team.transcripts (team_id, session_id, codec, raw_bytes, sha256, data)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      fixture.teamId,
      fixture.id,
      codec,
      raw.length,
      fixture.sha256 ?? createHash("sha256").update(raw).digest("hex"),
      data,
    ],
  );
}
