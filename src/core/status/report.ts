// What `ctx status --json`, the `ctx_status` tool and `ctx://status` report, built from what the
// store read. One schema for all three, so scripts and Claude see the same shape.
import * as z from "zod/mini";
import { formatAuditLine } from "../audit/report.ts";
import { AuditListingSchema } from "../audit/report-schema.ts";
import { type ContextState, countState, StateCountsSchema } from "../context/schema.ts";
import { type Health, HealthSchema } from "../guard/health.ts";
import { formatHealthText, formatTokens } from "../guard/text.ts";
import { formatRecoveryLine, type Recovery, RecoverySchema } from "../sessions/recovery.ts";
import type { SessionsFile } from "../sessions/seen.ts";
import { formatBytes } from "../snapshots/summary.ts";

export const RECENT_SESSIONS_SHOWN = 10;

export const StatusSessionSchema = z.object({
  sessionId: z.string(),
  source: z.nullable(z.string()),
  startedAt: z.nullable(z.string()),
  endedAt: z.nullable(z.string()),
  endReason: z.nullable(z.string()),
  transcriptPath: z.nullable(z.string()),
});

export const StatusSchema = z.object({
  version: z.string(),
  project: z.object({
    root: z.string(),
    ctxDir: z.string(),
    /** `.ctx/` exists (ctx init ran, or a hook wrote state). */
    initialized: z.boolean(),
  }),
  sessions: z.object({
    count: z.int(),
    recent: z.array(StatusSessionSchema),
  }),
  /** The newest session that ended without session-end (crashed) and that a checkpoint can bring back; null otherwise. */
  recovery: z.nullable(RecoverySchema),
  /** The context guard's figures for the session most recently measured here; null before the first one. */
  health: z.nullable(HealthSchema),
  /** The newest compaction audit (what the last compaction's summary lost); null before the first one. */
  lastAudit: z.nullable(AuditListingSchema),
  /** The project's saved context (`.ctx/state.ctx`): whose, when, and what it holds; null before the first save. */
  saved: z.nullable(
    z.object({
      sessionId: z.string(),
      /** When it was captured from the transcript. */
      savedAt: z.string(),
      /** Main-chain messages since the session's last compaction (kept ones and those the budget left out). */
      messages: z.int(),
      /** The context window in use at the save (the last reply's real usage). */
      contextTokens: z.nullable(z.int()),
      trackedFiles: z.int(),
      counts: StateCountsSchema,
    }),
  ),
  /** What `.ctx/` holds on disk: every regular file's bytes, and the checkpoints and snapshots among them. */
  storage: z.object({ bytes: z.int(), checkpoints: z.int(), snapshots: z.int() }),
  /** Problems found while reading (e.g. a state file that fails to verify); empty when all is well. */
  warnings: z.array(z.string()),
});
export type Status = z.infer<typeof StatusSchema>;

export function buildStatus(input: {
  version: string;
  root: string;
  ctxDir: string;
  initialized: boolean;
  sessions: SessionsFile | null;
  warnings: string[];
  recovery?: Recovery | null;
  health?: Health | null;
  lastAudit?: Status["lastAudit"];
  saved?: ContextState | null;
  storage?: Status["storage"];
  /** How many recent sessions to list (default RECENT_SESSIONS_SHOWN). */
  recent?: number;
}): Status {
  const saved = input.saved ?? null;
  const sessions = input.sessions?.sessions ?? [];
  return {
    version: input.version,
    project: { root: input.root, ctxDir: input.ctxDir, initialized: input.initialized },
    sessions: {
      count: sessions.length,
      recent: sessions.slice(0, input.recent ?? RECENT_SESSIONS_SHOWN).map((s) => ({
        sessionId: s.sessionId,
        source: s.source,
        startedAt: s.startedAt,
        endedAt: s.endedAt,
        endReason: s.endReason,
        transcriptPath: s.transcriptPath,
      })),
    },
    recovery: input.recovery ?? null,
    health: input.health ?? null,
    lastAudit: input.lastAudit ?? null,
    saved:
      saved === null
        ? null
        : {
            sessionId: saved.sessionId,
            savedAt: saved.extractedAt,
            messages: saved.conversation.length + saved.conversationOmitted,
            contextTokens: saved.contextTokens,
            trackedFiles: saved.files.length,
            counts: countState(saved),
          },
    storage: input.storage ?? { bytes: 0, checkpoints: 0, snapshots: 0 },
    warnings: input.warnings,
  };
}

/** The status as lines a person (or Claude) reads. */
export function formatStatusText(status: Status): string {
  const lines = [
    `ctx ${status.version}`,
    `project: ${status.project.root}${status.project.initialized ? "" : " (not set up: run `ctx init`)"}`,
    `sessions seen: ${status.sessions.count}`,
  ];
  for (const s of status.sessions.recent) {
    const ended = s.endedAt ? `ended ${s.endedAt}${s.endReason ? ` (${s.endReason})` : ""}` : "no end recorded";
    lines.push(`  ${s.sessionId}  ${s.source ?? "?"}  started ${s.startedAt ?? "?"}  ${ended}`);
  }
  if (status.saved !== null) {
    const { saved } = status;
    const tokens = saved.contextTokens === null ? "" : `, ${formatTokens(saved.contextTokens)} tokens in use`;
    lines.push(
      `saved context: session ${saved.sessionId}, ${saved.messages} message(s)${tokens}, ${saved.trackedFiles} file(s) tracked, ${saved.counts.todos} todo(s), ${saved.counts.decisions} decision(s); saved ${saved.savedAt}`,
    );
  }
  if (status.project.initialized) {
    const { bytes, checkpoints, snapshots } = status.storage;
    lines.push(`storage: .ctx/ ${formatBytes(bytes)}; ${checkpoints} checkpoint(s), ${snapshots} snapshot(s)`);
  }
  if (status.recovery !== null) lines.push(formatRecoveryLine(status.recovery));
  if (status.health !== null) lines.push(formatHealthText(status.health).trimEnd());
  if (status.lastAudit !== null) {
    lines.push(`last compaction audit:${formatAuditLine(status.lastAudit).trimStart().replace(/^/, " ")}`);
    for (const item of status.lastAudit.lostItems.slice(0, 5)) {
      lines.push(`  lost ${item.kind}: ${(item.text.split("\n")[0] ?? "").trim()}`);
    }
    if (status.lastAudit.lostItems.length > 5) lines.push(`  … \`ctx audit\` lists all ${status.lastAudit.lost}`);
  }
  for (const warning of status.warnings) lines.push(`warning: ${warning}`);
  return `${lines.join("\n")}\n`;
}
