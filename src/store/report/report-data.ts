// What `ctx report` draws, read from ctx's own files and Claude Code's transcripts: the project's sessions of the
// last weeks (transcript size, peak context, compactions), one session's context-window curve (core/report), and
// the snapshots taken. Transcripts are only read (regular files; a missing one is reported, not an error).
import { readFile, stat } from "node:fs/promises";
import type { Config } from "../../config/schema.ts";
import { autoCompactSettingsFromEnv, autoCompactThreshold, inferWindowTokens } from "../../core/guard/tokens.ts";
import { buildContextCurve } from "../../core/report/context-curve.ts";
import type { ReportData, ReportSessionRow } from "../../core/report/report-html.ts";
import { CtxError } from "../../errors.ts";
import { readSessionsSeen } from "../sessions/seen.ts";
import { listSnapshots } from "../snapshots/snapshots.ts";

export interface ReportOptions {
  projectRoot: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  now: Date;
  /** A session id (or a unique prefix); default: the most recent session with a transcript. */
  sessionId?: string;
  weeks: number;
  indexPath: string;
}

async function readTranscriptLines(path: string | null): Promise<{ lines: string[]; bytes: number } | null> {
  if (path === null) return null;
  const info = await stat(path).catch(() => null);
  if (info === null || !info.isFile()) return null;
  const text = await readFile(path, "utf8");
  return { lines: text.split("\n"), bytes: info.size };
}

export async function collectReportData(options: ReportOptions): Promise<ReportData> {
  const { config, env } = options;
  const seen = (await readSessionsSeen(options.projectRoot))?.sessions ?? [];
  const since = options.now.getTime() - options.weeks * 7 * 86_400_000;
  const recent = seen
    .filter((s) => Date.parse(s.lastSeenAt) >= since || s.sessionId === options.sessionId)
    .sort((a, b) => Date.parse(b.lastSeenAt) - Date.parse(a.lastSeenAt));
  const snapshots = await listSnapshots(options.projectRoot).catch(() => []);
  const guardSettings = config.guard;
  const bufferSettings = autoCompactSettingsFromEnv(env, config.guard.autoCompactBufferTokens);
  const curveOf = (sessionId: string, lines: string[]) =>
    buildContextCurve({
      sessionId,
      lines,
      settings: guardSettings,
      window: (model, peak) => {
        const windowTokens = inferWindowTokens({
          configured: config.guard.windowTokens,
          reported: null,
          model,
          usedTokens: peak,
          extendedDisabled: env.CLAUDE_CODE_DISABLE_1M_CONTEXT === "1",
        });
        return { windowTokens, autoCompactTokens: autoCompactThreshold(windowTokens, bufferSettings) };
      },
      snapshots: snapshots.filter((s) => s.sessionId === sessionId),
    });

  const chosen = options.sessionId === undefined ? undefined : pickSession(seen, options.sessionId);
  const rows: ReportSessionRow[] = [];
  let drawn: ReportData["session"] = null;
  for (const record of chosen !== undefined && !recent.includes(chosen) ? [chosen, ...recent] : recent) {
    const transcript = await readTranscriptLines(record.transcriptPath);
    const curve = transcript === null ? null : curveOf(record.sessionId, transcript.lines);
    rows.push({
      sessionId: record.sessionId,
      startedAt: record.startedAt,
      endedAt: record.endedAt,
      source: record.source,
      transcriptPath: record.transcriptPath,
      transcriptBytes: transcript?.bytes ?? null,
      replies: curve?.points.length ?? 0,
      peakTokens: curve?.peakTokens ?? 0,
      compactions: curve?.compactions.length ?? 0,
      snapshots: snapshots.filter((s) => s.sessionId === record.sessionId).length,
    });
    const wanted = chosen === undefined ? drawn === null && (curve?.points.length ?? 0) > 0 : record === chosen;
    if (wanted && curve !== null && record.transcriptPath !== null) {
      drawn = { sessionId: record.sessionId, transcriptPath: record.transcriptPath, curve };
    }
  }
  if (chosen !== undefined && drawn === null) {
    throw new CtxError("NOT_FOUND", `the transcript of session ${chosen.sessionId} cannot be read`, {
      hint: `it was ${chosen.transcriptPath ?? "never recorded"}; Claude Code may have cleaned it up`,
    });
  }
  const index = await stat(options.indexPath).catch(() => null);
  const wal = await stat(`${options.indexPath}-wal`).catch(() => null);
  return {
    projectRoot: options.projectRoot,
    generatedAt: options.now.toISOString(),
    weeks: options.weeks,
    sessions: rows,
    session: drawn,
    indexBytes: index === null ? null : index.size + (wal?.size ?? 0),
  };
}

function pickSession<T extends { sessionId: string }>(sessions: readonly T[], wanted: string): T {
  const exact = sessions.find((s) => s.sessionId === wanted);
  if (exact !== undefined) return exact;
  const matches = sessions.filter((s) => s.sessionId.startsWith(wanted));
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  throw new CtxError(
    "NOT_FOUND",
    matches.length === 0 ? `no session ${wanted} in this project` : `${wanted} matches ${matches.length} sessions`,
    {
      hint: "`ctx status` lists the sessions seen here; pass the full id",
    },
  );
}
