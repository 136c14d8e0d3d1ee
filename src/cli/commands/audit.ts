// `ctx audit [--session S] [--json]`: what each compaction's summary lost of what ctx saved before it
// (open tasks, plan, decisions, preferences, rules, files being edited, failures), newest first. The same
// schema as the `ctx_audit` tool (core/audit/report.ts); the records are made at SessionStart `compact` and
// PostCompact (hooks/injection/compaction-audit.ts).
import type { Command } from "commander";
import { formatAuditText } from "../../core/audit/report.ts";
import { CtxError } from "../../errors.ts";
import { readAuditReport } from "../../store/audit/audit-store.ts";
import type { CliContext } from "../command-io.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, type ProjectFlags, projectRootFor } from "../project-flags.ts";

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function registerAuditCommand(program: Command, ctx: CliContext): void {
  addProjectFlags(
    program
      .command("audit")
      .description("what each compaction's summary lost of the context ctx saved before it, newest first")
      .option("--session <id>", "only this session's compactions"),
  ).action(async (flags: ProjectFlags & { session?: string }) => {
    if (flags.session !== undefined && !SESSION_ID.test(flags.session)) {
      throw new CtxError("USAGE", `"${flags.session}" is not a session id`, {
        hint: "pass a Claude Code session id (`ctx status` lists the recent ones)",
      });
    }
    const report = await readAuditReport(projectRootFor(ctx, flags), flags.session);
    ctx.out(flags.json ? formatJson(report) : formatAuditText(report));
  });
}
