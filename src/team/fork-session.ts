// A teammate's session fetched from the team server for `ctx fork`: its row, its project's identity and its
// redacted transcript (compressed by the pusher: gzip or zstd), checked against its length and SHA-256 before
// anything is written. transplant/place-transcript.ts then makes it this machine's (cwd fields moved to this
// checkout) and writes it into Claude Code's project folder for that checkout, beside the user's own sessions.
import { createHash } from "node:crypto";
import { isPlainRepoPath } from "../core/team/project-identity.ts";
import { hasControlCharacter } from "../core/text/control-characters.ts";
import { CtxError } from "../errors.ts";
import { decompressTranscript, isTranscriptCodec } from "../store/files/codecs.ts";
import type { TeamClient } from "./connect.ts";

export interface TeamTranscript {
  codec: string;
  rawBytes: number;
  sha256: string;
  data: Uint8Array;
}

export interface TeamSession {
  id: string;
  title: string;
  /** The author's handle in the team (their role when no handle is found). */
  author: string;
  forkable: boolean;
  remoteUrl: string;
  repoPath: string;
  /** Null when the session was pushed without one (too large to upload). */
  transcript: TeamTranscript | null;
}

const MIB = 1024 * 1024;

/**
 * The session `sessionId` of team `teamId` as this member may read it (row-level security), or null. Its project's
 * identity is a teammate's text: a `repo_path` that is not plain folder names inside the repository (`..`, absolute,
 * control characters: core/team/project-identity.ts isPlainRepoPath), or a remote with a control character, is
 * refused here, before any folder is looked at or anything written.
 */
export async function fetchTeamSession(
  client: TeamClient,
  teamId: string,
  sessionId: string,
): Promise<TeamSession | null> {
  const { rows } = await client.query<{
    id: string;
    title: string;
    author: string;
    forkable: boolean;
    remote_url: string;
    repo_path: string;
    codec: string | null;
    raw_bytes: string | null;
    sha256: string | null;
    data: Buffer | null;
  }>(
    `SELECT s.id, s.title, coalesce(m.handle, s.author::text) AS author, s.forkable, p.remote_url, p.repo_path,
            t.codec, t.raw_bytes, t.sha256, t.data
     FROM ctx_team.sessions s
     JOIN ctx_team.projects p ON p.team_id = s.team_id AND p.id = s.project_id
     LEFT JOIN ctx_team.members m ON m.team_id = s.team_id AND m.role_name = s.author
     LEFT JOIN ctx_team.transcripts t ON t.team_id = s.team_id AND t.session_id = s.id
     WHERE s.team_id = $1::bigint AND s.id = $2::text`,
    [teamId, sessionId],
  );
  const row = rows[0];
  if (row === undefined) return null;
  if (!isPlainRepoPath(row.repo_path) || hasControlCharacter(row.remote_url)) {
    const what = isPlainRepoPath(row.repo_path)
      ? `remote ${JSON.stringify(row.remote_url)}, which holds a control character`
      : `folder ${JSON.stringify(row.repo_path)}, which is not a plain path inside a repository`;
    throw new CtxError("TEAM_REFUSED", `the team server gives session ${row.id}'s project the ${what}`, {
      hint: "ctx forks only into your own checkout of the project; nothing was written (its author can share it again from a checkout)",
    });
  }
  return {
    id: row.id,
    title: row.title,
    author: row.author,
    forkable: row.forkable,
    remoteUrl: row.remote_url,
    repoPath: row.repo_path,
    transcript:
      row.codec === null || row.data === null
        ? null
        : { codec: row.codec, rawBytes: Number(row.raw_bytes), sha256: row.sha256 ?? "", data: row.data },
  };
}

/**
 * The session's transcript, decompressed and checked: its length is the pushed `raw_bytes` and its SHA-256 the
 * pushed one. A session pushed without a transcript (over the pusher's team.maxTranscriptMegabytes), or one larger
 * than this machine's limit, is refused; so is damage. Nothing is written before this returns.
 */
export function decodeTeamTranscript(session: TeamSession, maxMegabytes: number): Buffer {
  const transcript = session.transcript;
  if (!session.forkable || transcript === null) {
    throw new CtxError("NOT_FOUND", `session ${session.id} by ${session.author} cannot be forked`, {
      hint: "its redacted transcript was too large to upload when it was pushed (team.maxTranscriptMegabytes), so only its searchable chunks are on the server; ask its author to share it another way",
    });
  }
  if (transcript.rawBytes > maxMegabytes * MIB) {
    throw new CtxError(
      "STORAGE_LIMIT",
      `session ${session.id}'s transcript is ${Math.ceil(transcript.rawBytes / MIB)} MiB`,
      {
        hint: `this machine takes at most team.maxTranscriptMegabytes (${maxMegabytes}) MiB; raise it to fork this session; nothing was written`,
      },
    );
  }
  const damaged = (what: string) =>
    new CtxError("STATE_CORRUPT", `the transcript of session ${session.id} on the team server is damaged: ${what}`, {
      hint: `nothing was written; its author can push it again (\`ctx team push\`)`,
    });
  let text: Buffer;
  try {
    text = decompress(transcript);
  } catch (error) {
    if (error instanceof CtxError) throw error;
    throw damaged(`it does not decompress as ${transcript.codec} (${error instanceof Error ? error.message : error})`);
  }
  if (text.length !== transcript.rawBytes)
    throw damaged(`${text.length} bytes where ${transcript.rawBytes} were pushed`);
  if (createHash("sha256").update(text).digest("hex") !== transcript.sha256.toLowerCase()) {
    throw damaged("its SHA-256 does not match");
  }
  return text;
}

function decompress(transcript: TeamTranscript): Buffer {
  if (isTranscriptCodec(transcript.codec)) {
    return Buffer.from(decompressTranscript(transcript.codec, transcript.data, transcript.rawBytes));
  }
  throw new CtxError(
    "STATE_CORRUPT",
    `the transcript's codec ${JSON.stringify(transcript.codec)} is not one ctx knows`,
    {
      hint: "nothing was written; a newer ctx may have pushed it: update ctx",
    },
  );
}
