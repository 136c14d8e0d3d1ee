// `ctx doctor`: a checklist of everything ctx needs (Node, PATH, project and user wiring, .ctx/, state
// files, config), each problem with a fix to run. Exit code 1 when anything failed.
import { resolve } from "node:path";
import type { Command } from "commander";
import { assertOwnProjectCtx, searchProjectRoot } from "../../config/paths.ts";
import { buildDoctorReport, formatDoctorReport } from "../../core/setup/doctor-report.ts";
import { runDoctorChecks } from "../../setup/doctor-checks.ts";
import { describeSelf, type SelfInfo } from "../../setup/self.ts";
import { colorsFor, highlightDoctorMarks } from "../color.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

interface DoctorCommandOptions {
  json?: boolean;
  project?: string;
}

export interface DoctorCommandDeps {
  self?: SelfInfo;
}

export function registerDoctorCommand(program: Command, ctx: CliContext, deps: DoctorCommandDeps = {}): void {
  program
    .command("doctor")
    .description(COMMANDS.doctor.description)
    .option("--json", "print { ok, findings } as JSON")
    .option("--project <dir>", "the project folder (default: the repository around the current folder)")
    .action(async (options: DoctorCommandOptions) => {
      // Another user's `.ctx` passed over on the way up is a finding; the project's own being theirs is refused.
      const search =
        options.project === undefined
          ? searchProjectRoot(ctx.cwd, ctx.env)
          : { root: assertOwnProjectCtx(resolve(ctx.cwd, options.project), ctx.env), foreign: [] };
      const projectDir = options.project ?? search.root;
      const findings = await runDoctorChecks({
        projectDir,
        foreignMarkers: search.foreign,
        env: ctx.env,
        self: deps.self ?? describeSelf(ctx.env),
      });
      const report = buildDoctorReport(findings);
      if (options.json) ctx.out(formatJson(report));
      else {
        const colors = colorsFor(ctx);
        ctx.out(formatDoctorReport(report, projectDir), (safe) => highlightDoctorMarks(safe, colors));
      }
      if (!report.ok) ctx.setExitCode(1);
    });
}
