// The compaction audits, one small JSON file per compaction beside its snapshot:
// `.ctx/snapshots/<snapshot id>.audit.json` (pruned with the snapshot). Written atomically, 0600; read only
// as regular files (a symlink or anything else under that name is skipped), and a file that does not
// parse is skipped and counted, never fatal: the audit is a report, not the state.
import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { checkCompactionAudit } from "../../core/audit/compaction-audit-schema.compiled.ts";
import type { CompactionAudit } from "../../core/audit/compaction-audit-schema.ts";
import { type AuditReport, buildAuditReport } from "../../core/audit/report.ts";
import { ensurePrivateDir, writeFileAtomic } from "../files/atomic-write.ts";
import { ensureProjectCtxDir } from "../files/project-dir.ts";
import { TIME_ID_PATTERN } from "../snapshots/time-id.ts";

export const AUDIT_SUFFIX = ".audit.json";

export function auditPath(projectRoot: string, snapshotId: string): string {
  return join(projectPaths(projectRoot).snapshots, `${snapshotId}${AUDIT_SUFFIX}`);
}

export async function writeAudit(projectRoot: string, audit: CompactionAudit): Promise<void> {
  if (!TIME_ID_PATTERN.test(audit.snapshotId)) throw new Error(`not a snapshot id: ${audit.snapshotId}`);
  await ensureProjectCtxDir(projectRoot);
  await ensurePrivateDir(projectPaths(projectRoot).snapshots);
  await writeFileAtomic(auditPath(projectRoot, audit.snapshotId), `${JSON.stringify(audit, null, 2)}\n`);
}

/** The audit of one compaction; null when there is none (or it is not a regular file, or does not parse). */
export async function readAudit(projectRoot: string, snapshotId: string): Promise<CompactionAudit | null> {
  if (!TIME_ID_PATTERN.test(snapshotId)) return null;
  return readAuditFile(auditPath(projectRoot, snapshotId));
}

export interface AuditList {
  audits: CompactionAudit[];
  /** Audit files that did not parse (skipped). */
  unreadable: number;
}

/** Every audit of the project, in no particular order (core/audit/report.ts sorts). */
export async function listAudits(projectRoot: string, sessionId?: string): Promise<AuditList> {
  const dir = projectPaths(projectRoot).snapshots;
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const audits: CompactionAudit[] = [];
  let unreadable = 0;
  for (const name of names) {
    if (!name.endsWith(AUDIT_SUFFIX) || !TIME_ID_PATTERN.test(name.slice(0, -AUDIT_SUFFIX.length))) continue;
    const audit = await readAuditFile(join(dir, name));
    if (audit === null) unreadable += 1;
    else if (sessionId === undefined || audit.sessionId === sessionId) audits.push(audit);
  }
  return { audits, unreadable };
}

async function readAuditFile(path: string): Promise<CompactionAudit | null> {
  const info = await lstat(path).catch(() => null);
  if (info === null || !info.isFile()) return null;
  try {
    const checked = checkCompactionAudit(JSON.parse(await readFile(path, "utf8")));
    return checked.ok ? checked.value : null;
  } catch {
    return null;
  }
}

/** The project's audits as `ctx audit` reports them, newest first (one session's, when given). */
export async function readAuditReport(projectRoot: string, sessionId?: string): Promise<AuditReport> {
  return buildAuditReport((await listAudits(projectRoot, sessionId)).audits);
}
