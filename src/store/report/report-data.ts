// What `ctx report` draws, read from ctx's own files and Claude Code's transcripts: the project's sessions of the
// last weeks (transcript size, peak context, compactions), one session's context-window curve (core/report), and
// the snapshots taken. Transcripts are only read (regular files; a missing one is reported, not an error).
import { readFile, stat } from "node:fs/promises";
import type { Config } from "../../config/schema.ts";
import { autoCompactSettingsFromEnv, autoCompactThreshold, inferWindowTokens } from "../../core/guard/tokens.ts";
import { buildContextCurve, type ContextCurve } from "../../core/report/context-curve.ts";
import type { ReportData, ReportSessionRow } from "../../core/report/report-html.ts";
import { CtxError } from "../../errors.ts";
import { readSessionsSeen } from "../sessions/seen.ts";
import { listSnapshots } from "../snapshots/snapshots.ts";
import { type CachedReportRow, readReportRowCache, reportRowKey, writeReportRowCache } from "./report-rows-cache.ts";

export interface ReportOptions {
  projectRoot: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  now: Date;
  /** A session id (or a unique prefix); default: the most recent session with a transcript. */
  sessionId?: string;
  weeks: number;
  indexPath: string;
  /**
   * Keep each row's reading in `<ctx home>/cache/report-rows.json` and read only the transcripts that changed (the
   * ui's context page, loaded again and again); the drawn session's transcript is read either way.
   */
  cacheRows?: boolean;
}

async function readTranscriptLines(path: string): Promise<string[] | null> {
  const text = await readFile(path, "utf8").catch(() => null);
  return text === null ? null : text.split("\n");
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
  const cache = options.cacheRows === true ? await readReportRowCache(env) : null;
  const kept = new Map<string, CachedReportRow>();
  const rows: ReportSessionRow[] = [];
  let drawn: ReportData["session"] = null;
  for (const record of chosen !== undefined && !recent.includes(chosen) ? [chosen, ...recent] : recent) {
    const path = record.transcriptPath;
    const info = path === null ? null : await stat(path).catch(() => null);
    const file = path !== null && info?.isFile() ? { path, size: info.size, mtimeMs: info.mtimeMs } : null;
    const key = file === null ? null : reportRowKey(file.path, file.size, file.mtimeMs);
    let reading = key === null ? null : (cache?.get(key) ?? null);
    // Read when there is no reading yet, or when this may be the session drawn (its curve is never cached).
    const mayDraw =
      chosen === undefined ? drawn === null && (reading === null || reading.replies > 0) : record === chosen;
    let curve: ContextCurve | null = null;
    if (file !== null && (reading === null || mayDraw)) {
      const lines = await readTranscriptLines(file.path);
      curve = lines === null ? null : curveOf(record.sessionId, lines);
      if (curve !== null) {
        reading = { replies: curve.points.length, peakTokens: curve.peakTokens, compactions: curve.compactions.length };
      }
    }
    if (key !== null && reading !== null) kept.set(key, reading);
    rows.push({
      sessionId: record.sessionId,
      startedAt: record.startedAt,
      endedAt: record.endedAt,
      source: record.source,
      transcriptPath: record.transcriptPath,
      transcriptBytes: file === null || reading === null ? null : file.size,
      replies: reading?.replies ?? 0,
      peakTokens: reading?.peakTokens ?? 0,
      compactions: reading?.compactions ?? 0,
      snapshots: snapshots.filter((s) => s.sessionId === record.sessionId).length,
    });
    const wanted = chosen === undefined ? drawn === null && (curve?.points.length ?? 0) > 0 : record === chosen;
    if (wanted && curve !== null && file !== null) {
      drawn = { sessionId: record.sessionId, transcriptPath: file.path, curve };
    }
  }
  // The cache is a saving, never a failure: a folder that cannot be written leaves the page as it was.
  if (cache !== null) await writeReportRowCache(env, kept).catch(() => undefined);
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
