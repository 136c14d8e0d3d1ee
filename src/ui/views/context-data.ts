// The context page's data (docs/ui.md "This project's context"): the guard's usage over time (the same curve and
// session rows `ctx report` draws, store/report/report-data.ts), the compaction audits (store/audit), the snapshots
// and checkpoints (store/snapshots), the context budget (store/budget) and the CLAUDE.md rules (store/rules). Each
// part is read on its own: one that fails (a damaged budget file, say) is that part's error on the page, and the rest
// is shown all the same.
import type { Config } from "../../config/schema.ts";
import type { CompactionAudit } from "../../core/audit/compaction-audit-schema.ts";
import type { ReportData, TierThresholds } from "../../core/report/report-html.ts";
import type { Cascade } from "../../core/rules/claude-md.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { listAudits } from "../../store/audit/audit-store.ts";
import { type BudgetListing, listBudget } from "../../store/budget/operations.ts";
import { collectReportData } from "../../store/report/report-data.ts";
import { discoverClaudeMdRules } from "../../store/rules/claude-md.ts";
import { type CheckpointEntry, listCheckpoints } from "../../store/snapshots/checkpoints.ts";
import { listSnapshots, type SnapshotEntry } from "../../store/snapshots/snapshots.ts";
import { type Part, part } from "./part.tsx";

export interface ContextData {
  projectRoot: string;
  thresholds: TierThresholds;
  /** The usage chart's curve and the sessions of the last weeks, as `ctx report` has them. */
  usage: Part<ReportData>;
  /** The compaction audits, newest first, with the files that did not parse counted. */
  audits: Part<{ audits: CompactionAudit[]; unreadable: number }>;
  snapshots: Part<SnapshotEntry[]>;
  checkpoints: Part<CheckpointEntry[]>;
  budget: Part<BudgetListing>;
  rules: Part<Cascade>;
}

export interface ContextRequest {
  config: Config;
  now: Date;
  /** The session whose curve is drawn (an id or its first characters); default: the most recent one. */
  sessionId?: string;
  /** Weeks of sessions listed (as `ctx report --weeks`). */
  weeks?: number;
}

export async function loadProjectContext(
  env: NodeJS.ProcessEnv,
  projectRoot: string,
  request: ContextRequest,
): Promise<ContextData> {
  const { config, now } = request;
  const [usage, audits, snapshots, checkpoints, budget, rules] = await Promise.all([
    part(() =>
      collectReportData({
        projectRoot,
        config,
        env,
        now,
        weeks: request.weeks ?? 4,
        indexPath: resolveIndexPath(env),
        // A page is loaded again and again: rows of unchanged transcripts come from the cache.
        cacheRows: true,
        ...(request.sessionId === undefined ? {} : { sessionId: request.sessionId }),
      }),
    ),
    part(async () => {
      const found = await listAudits(projectRoot);
      return { ...found, audits: found.audits.sort((a, b) => Date.parse(b.at) - Date.parse(a.at)) };
    }),
    part(() => listSnapshots(projectRoot)),
    part(() => listCheckpoints(projectRoot)),
    part(() =>
      listBudget({ projectRoot, caps: config.budget.caps, allowlist: config.redaction.allowlist, now: () => now }),
    ),
    part(async () => discoverClaudeMdRules(projectRoot, env)),
  ]);
  const thresholds = {
    warning: config.guard.warningPercent,
    advisory: config.guard.advisoryPercent,
    yellow: config.guard.yellowPercent,
    critical: config.guard.criticalPercent,
  };
  return { projectRoot, thresholds, usage, audits, snapshots, checkpoints, budget, rules };
}
