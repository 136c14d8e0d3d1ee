// What `ctx stats` counts beyond IndexStats, without a pass over a whole table (issue 36 wants the report under 500 ms
// at 100,000 sessions): sessions per project and per month from the running counts (./counts-schema.ts), each
// project's last activity one seek in sessions_project (project, updated_at), and the duplicates found at index time
// (./duplicates.ts; the transcripts in several folders counted too).
import { readCount } from "./counts-schema.ts";
import { databaseOf } from "./database.ts";
import type { SessionIndex } from "./session-index.ts";

export interface ProjectCount {
  project: string;
  sessions: number;
  /** Its newest session's last activity (epoch ms), or null when no session has a time. */
  lastActiveAt: number | null;
}

export interface MonthCount {
  /** `YYYY-MM` (UTC) of the sessions' first message. */
  month: string;
  sessions: number;
}

export interface DuplicateCounts {
  /** Sessions folded into another (copies that added nothing of their own). */
  copies: number;
  /** The sessions they fold into. */
  foldedInto: number;
  /** Session ids whose transcript is in more than one project folder. */
  sharedTranscripts: number;
}

export interface IndexCounts {
  /** Most sessions first (then by name). */
  byProject: ProjectCount[];
  /** Oldest month first; sessions without a time are left out. */
  byMonth: MonthCount[];
  duplicates: DuplicateCounts;
}

export function readIndexCounts(index: SessionIndex): IndexCounts {
  const db = databaseOf(index);
  const byProject = db
    .prepare(
      `SELECT c.key AS project, c.n AS sessions,
         (SELECT max(s.updated_at) FROM sessions s WHERE s.project = c.key) AS last
       FROM counts c WHERE c.kind = 'project' AND c.n > 0 ORDER BY c.n DESC, c.key`,
    )
    .all() as Array<{ project: string; sessions: number; last: number | null }>;
  const byMonth = db
    .prepare("SELECT key AS month, n AS sessions FROM counts WHERE kind = 'month' AND n > 0 ORDER BY key")
    .all() as Array<{ month: string; sessions: number }>;
  const folded = db
    .prepare("SELECT count(*) AS copies, count(DISTINCT canonical_id) AS folded_into FROM duplicates")
    .get() as { copies: number; folded_into: number };
  const shared = readCount(db, "total", "shared_transcripts");
  return {
    byProject: byProject.map((row) => ({
      project: String(row.project),
      sessions: Number(row.sessions),
      lastActiveAt: row.last === null ? null : Number(row.last),
    })),
    byMonth: byMonth.map((row) => ({ month: String(row.month), sessions: Number(row.sessions) })),
    duplicates: {
      copies: Number(folded.copies),
      foldedInto: Number(folded.folded_into),
      sharedTranscripts: shared,
    },
  };
}
