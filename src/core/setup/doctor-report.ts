// The shape of `ctx doctor`'s findings (`--json` prints `{ ok, findings }`) and the human checklist.
import * as z from "zod/mini";

export const FindingSchema = z.object({
  id: z.string(),
  status: z.enum(["ok", "warn", "fail"]),
  message: z.string(),
  /** A concrete thing to run or do; every non-ok finding has one. */
  fix: z.optional(z.string()),
});
export type Finding = z.infer<typeof FindingSchema>;

export const DoctorReportSchema = z.object({
  ok: z.boolean(),
  findings: z.array(FindingSchema),
});
export type DoctorReport = z.infer<typeof DoctorReportSchema>;

export function ok(id: string, message: string): Finding {
  return { id, status: "ok", message };
}

export function warn(id: string, message: string, fix: string): Finding {
  return { id, status: "warn", message, fix };
}

export function fail(id: string, message: string, fix: string): Finding {
  return { id, status: "fail", message, fix };
}

/** `ok` is false when any finding failed; warnings alone do not fail the run. */
export function buildDoctorReport(findings: readonly Finding[]): DoctorReport {
  return DoctorReportSchema.parse({ ok: findings.every((finding) => finding.status !== "fail"), findings });
}

const MARK: Record<Finding["status"], string> = { ok: "✓", warn: "!", fail: "✗" };

export function formatDoctorReport(report: DoctorReport, project: string): string {
  const lines = [`ctx doctor: ${project}`, ""];
  for (const finding of report.findings) {
    lines.push(`${MARK[finding.status]} ${finding.message}`);
    if (finding.fix !== undefined) lines.push(`    fix: ${finding.fix}`);
  }
  const failed = report.findings.filter((finding) => finding.status === "fail").length;
  const warned = report.findings.filter((finding) => finding.status === "warn").length;
  lines.push("", failed + warned === 0 ? "All good." : `${failed} problem(s), ${warned} warning(s).`);
  return `${lines.join("\n")}\n`;
}
