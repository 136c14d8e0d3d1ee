// Fills the team library for bench/team-scale.bench.ts past what the real `ctx team push` does in reasonable time:
// the rows one member really pushed (templates, read back from the server) are varied into new sessions of every
// member, none alike (new ids, dates and project, a fifth of each chunk's words swapped for words of the corpus's
// vocabulary), and written through push's own SQL (src/team/push-write.ts writeBatch: the same upserts, the same
// term-statistics triggers), as each member's own role under row-level security, in push-sized batches.
import { createHash } from "node:crypto";
import type { TeamClient } from "../src/team/connect.ts";
import type { ChunkRow, SessionWork, TranscriptRow } from "../src/team/push-read.ts";
import { writeBatch } from "../src/team/push-write.ts";
import { createRng, type Rng, type Vocabulary, zipfIndex } from "./synthetic-text.ts";

export interface TemplateSession {
  work: Omit<SessionWork, "id" | "project">;
}

/** What push writes per batch at most (src/team/push.ts: 200 sessions, src/team/push-read.ts: ~4,000 chunks). */
const BATCH_SESSIONS = 200;
const BATCH_CHUNKS = 4_000;
const PROJECTS_PER_MEMBER = 40;
const TWO_YEARS_MS = 2 * 365 * 86_400_000;
const BASE_TIME = Date.UTC(2026, 10, 1);

/** The sessions a member pushed, as SessionWork again (read as the administrator, who sees every row). */
export async function readTemplates(admin: TeamClient, author: string): Promise<TemplateSession[]> {
  const sessions = await admin.query<{
    id: string;
    title: string;
    branch: string | null;
    started_at: Date | null;
    ended_at: Date | null;
    message_count: number;
    lineage: unknown;
    memory_markers: string[];
    forkable: boolean;
    codec: string | null;
    raw_bytes: string | null;
    sha256: string | null;
    data: Buffer | null;
  }>(
    `SELECT s.id, s.title, s.branch, s.started_at, s.ended_at, s.message_count, s.lineage, s.memory_markers,
            s.forkable, t.codec, t.raw_bytes, t.sha256, t.data
       FROM ctx_team.sessions s
       LEFT JOIN ctx_team.transcripts t ON t.team_id = s.team_id AND t.session_id = s.id
      WHERE s.author = $1 ORDER BY s.id`,
    [author],
  );
  const chunks = await admin.query<{
    session_id: string;
    source: string;
    chunk_index: number;
    start_offset: string;
    first_message: number;
    last_message: number;
    text: string;
    token_count: number;
    has_code: boolean;
    languages: string[];
    memory_type: string | null;
    starts_exchange: boolean;
    last_uuid: string | null;
  }>(
    `SELECT c.session_id, c.source, c.chunk_index, c.start_offset, c.first_message, c.last_message, c.text,
            c.token_count, c.has_code, c.languages, c.memory_type, c.starts_exchange, c.last_uuid
       FROM ctx_team.chunks c JOIN ctx_team.sessions s ON s.team_id = c.team_id AND s.id = c.session_id
      WHERE s.author = $1 ORDER BY c.session_id, c.source, c.chunk_index`,
    [author],
  );
  const bySession = new Map<string, ChunkRow[]>();
  for (const c of chunks.rows) {
    const list = bySession.get(c.session_id) ?? [];
    list.push({
      sessionId: c.session_id,
      source: c.source,
      chunkIndex: c.chunk_index,
      startOffset: Number(c.start_offset),
      firstMessage: c.first_message,
      lastMessage: c.last_message,
      text: c.text,
      tokenCount: c.token_count,
      hasCode: c.has_code,
      languages: c.languages,
      memoryType: c.memory_type,
      startsExchange: c.starts_exchange,
      lastUuid: c.last_uuid,
    } as ChunkRow);
    bySession.set(c.session_id, list);
  }
  return sessions.rows.map((s) => {
    const row: TranscriptRow | null =
      s.data === null
        ? null
        : { codec: s.codec ?? "gzip", rawBytes: Number(s.raw_bytes), sha256: s.sha256 ?? "", data: s.data };
    const own = bySession.get(s.id) ?? [];
    const lastIndex = new Map<string, number>();
    for (const c of own) lastIndex.set(c.source, Math.max(lastIndex.get(c.source) ?? -1, c.chunkIndex));
    return {
      work: {
        title: s.title,
        branch: s.branch,
        startedAt: s.started_at?.getTime() ?? null,
        endedAt: s.ended_at?.getTime() ?? null,
        messageCount: s.message_count,
        lineage: s.lineage,
        memoryMarkers: s.memory_markers,
        labels: [],
        note: null,
        transcript: { forkable: s.forkable, row },
        chunks: own,
        lastIndex,
      },
    };
  });
}

function uuidOf(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A fifth of the words swapped for vocabulary words (Zipf-distributed, as the corpus draws them). */
function vary(rng: Rng, vocabulary: Vocabulary, text: string): string {
  return text.replace(/[A-Za-z]{3,}/g, (word) =>
    rng.next() < 0.2 ? (vocabulary.words[zipfIndex(rng, vocabulary.words.length)] ?? word) : word,
  );
}

/** Session `index` of member `member`: a varied copy of one template. */
export function variedSession(
  templates: readonly TemplateSession[],
  vocabulary: Vocabulary,
  member: number,
  index: number,
): SessionWork {
  const rng = createRng(member * 10_000_019 + index);
  const template = templates[(index * 7 + member * 13) % templates.length] as TemplateSession;
  const id = uuidOf(`team-scale:${member}:${index}`);
  const shift = BASE_TIME - Math.floor(rng.next() * TWO_YEARS_MS) - (template.work.startedAt ?? BASE_TIME);
  const at = (t: number | null) => (t === null ? null : t + shift);
  return {
    ...template.work,
    id,
    project: {
      remoteUrl: `example.com/team-scale/project-${rng.int(0, PROJECTS_PER_MEMBER - 1)}`,
      repoPath: "",
      roots: [],
      sharedAt: 0,
    },
    title: vary(rng, vocabulary, template.work.title),
    startedAt: at(template.work.startedAt),
    endedAt: at(template.work.endedAt),
    chunks: template.work.chunks.map((c) => ({ ...c, sessionId: id, text: vary(rng, vocabulary, c.text) })),
  };
}

/**
 * Writes member `member`'s sessions [from, to) as that member, in push-sized batches; returns the chunks written.
 * `client` is connected as the member's role.
 */
export async function fillMember(
  client: TeamClient,
  teamId: string,
  templates: readonly TemplateSession[],
  vocabulary: Vocabulary,
  member: number,
  from: number,
  to: number,
): Promise<number> {
  const projectIds = new Map<string, string>();
  let chunks = 0;
  let batch: SessionWork[] = [];
  let batchChunks = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await writeBatch(client, teamId, batch, projectIds);
    batch = [];
    batchChunks = 0;
  };
  for (let i = from; i < to; i++) {
    const session = variedSession(templates, vocabulary, member, i);
    batch.push(session);
    batchChunks += session.chunks.length;
    chunks += session.chunks.length;
    if (batch.length >= BATCH_SESSIONS || batchChunks >= BATCH_CHUNKS) await flush();
  }
  await flush();
  return chunks;
}
