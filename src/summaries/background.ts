// Background summarisation for `ctx serve` (run as `ctx summarize --background`, a nice'd child of the
// server's background sync): this project's sessions whose transcripts went quiet are summarised with the
// configured LLM provider, one session at a time, newest first, so the summaries are ready before a
// compaction or a restore needs them. The daily token cap and the ledger are the summarizer's (a capped
// request falls back to extractive); the first session that hits the cap ends the pass.
import { stat } from "node:fs/promises";
import * as z from "zod/mini";
import { readSessionsSeen } from "../store/sessions/seen.ts";
import { type SummariesOpsDeps, summarizeSession } from "./operations.ts";

/** Sessions looked at in one pass (the newest seen here). */
export const BACKGROUND_SESSIONS = 5;

export const BackgroundSummariesReportSchema = z.object({
  provider: z.string(),
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      made: z.int(),
      reused: z.int(),
      llmRequests: z.int(),
      fallbacks: z.int(),
    }),
  ),
  /** Why sessions were left: `busy` (written to within the idle time), `gone` (no transcript), `extractive`. */
  skipped: z.array(z.object({ sessionId: z.string(), reason: z.string() })),
  /** The daily cap was reached: the pass stopped there. */
  capped: z.boolean(),
});
export type BackgroundSummariesReport = z.infer<typeof BackgroundSummariesReportSchema>;

export async function summarizeQuietSessions(
  deps: SummariesOpsDeps,
  options: { idleMs: number; maxSessions?: number },
): Promise<BackgroundSummariesReport> {
  const provider = deps.config.summaries.provider;
  const report: BackgroundSummariesReport = { provider, sessions: [], skipped: [], capped: false };
  const seen = (await readSessionsSeen(deps.projectRoot))?.sessions ?? [];
  const now = deps.now().getTime();
  for (const session of seen.slice(0, options.maxSessions ?? BACKGROUND_SESSIONS)) {
    if (provider === "extractive") {
      report.skipped.push({ sessionId: session.sessionId, reason: "extractive" });
      continue;
    }
    const info = session.transcriptPath === null ? null : await stat(session.transcriptPath).catch(() => null);
    if (info === null || session.transcriptPath === null || !info.isFile()) {
      report.skipped.push({ sessionId: session.sessionId, reason: "gone" });
      continue;
    }
    if (now - info.mtimeMs < options.idleMs) {
      report.skipped.push({ sessionId: session.sessionId, reason: "busy" });
      continue;
    }
    const { summaries } = await summarizeSession(deps, {
      sessionId: session.sessionId,
      transcriptPath: session.transcriptPath,
    });
    report.sessions.push({
      sessionId: session.sessionId,
      made: summaries.made,
      reused: summaries.reused,
      llmRequests: summaries.llmRequests,
      fallbacks: summaries.fallbacks,
    });
    if (summaries.fallbacks > 0) {
      report.capped = true;
      break;
    }
  }
  return report;
}
