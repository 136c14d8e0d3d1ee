// `ctx report [--session S] [--out FILE [--force]] [--open] [--weeks N] [--json]`: writes one self-contained HTML page
// with the context window of a session drawn from its real usage (compactions, guard tiers and snapshots marked), the
// project's sessions of the last weeks and the index's size; prints the path of the file it wrote. `--out` is the
// person's path: written by store/files/user-file.ts (their folder untouched, only a regular file replaced).
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import type { Command } from "commander";
import { loadConfig } from "../../config/load.ts";
import { projectPaths } from "../../config/paths.ts";
import { renderReportHtml } from "../../core/report/report-html.ts";
import { CtxError } from "../../errors.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import { writeFileAtomic } from "../../store/files/atomic-write.ts";
import { ensureProjectCtxDir } from "../../store/files/project-dir.ts";
import { userFileTarget, writeUserNamedFile } from "../../store/files/user-file.ts";
import { collectReportData } from "../../store/report/report-data.ts";
import { CTX_VERSION } from "../../version.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, type ProjectFlags, projectRootFor } from "../project-flags.ts";

interface ReportFlags extends ProjectFlags {
  session?: string;
  out?: string;
  open?: boolean;
  force?: boolean;
  weeks: string;
}

export function registerReportCommand(program: Command, ctx: CliContext): void {
  addProjectFlags(
    program
      .command("report")
      .description(COMMANDS.report.description)
      .option("--session <id>", "the session to draw (default: the most recent one with a transcript)")
      .option("--out <file>", "where to write the page (default: .ctx/report.html); its folder must exist")
      .option("--force", "with --out: write through a symbolic link to the file it points to")
      .option("--weeks <n>", "how many weeks of sessions to list", "4")
      .option("--open", "open the page in the default browser"),
  ).action(async (flags: ReportFlags) => {
    const weeks = Number(flags.weeks);
    if (!Number.isInteger(weeks) || weeks < 1 || weeks > 520) {
      throw new CtxError("USAGE", `--weeks must be a whole number from 1 to 520, not "${flags.weeks}"`);
    }
    const projectRoot = projectRootFor(ctx, flags);
    const config = loadConfig({ projectRoot, env: ctx.env });
    // A path that cannot be written is refused before the work (the write checks again where it happens).
    if (flags.out !== undefined) await userFileTarget(resolve(ctx.cwd, flags.out), { force: flags.force === true });
    const data = await collectReportData({
      projectRoot,
      config,
      env: ctx.env,
      now: new Date(),
      weeks,
      indexPath: resolveIndexPath(ctx.env),
      ...(flags.session === undefined ? {} : { sessionId: flags.session }),
    });
    const html = renderReportHtml(
      data,
      {
        warning: config.guard.warningPercent,
        advisory: config.guard.advisoryPercent,
        yellow: config.guard.yellowPercent,
        critical: config.guard.criticalPercent,
      },
      CTX_VERSION,
    );
    let out: string;
    if (flags.out === undefined) {
      await ensureProjectCtxDir(projectRoot);
      out = resolve(projectPaths(projectRoot).ctxDir, "report.html");
      await writeFileAtomic(out, html);
    } else {
      out = await writeUserNamedFile(resolve(ctx.cwd, flags.out), html, { force: flags.force === true });
    }
    if (flags.open) openInBrowser(out, ctx);
    if (flags.json) {
      const curve = data.session?.curve;
      ctx.out(
        formatJson({
          file: out,
          sessionId: data.session?.sessionId ?? null,
          points: curve?.points.length ?? 0,
          compactions: curve?.compactions.length ?? 0,
          tierMarks: curve?.tierMarks.length ?? 0,
          snapshots: curve?.snapshots.length ?? 0,
          sessions: data.sessions.length,
          indexBytes: data.indexBytes,
        }),
      );
    } else ctx.out(`${out}\n`);
  });
}

function openInBrowser(file: string, ctx: CliContext): void {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const child = spawn(command, [file], { detached: true, stdio: "ignore", env: ctx.env });
  child.on("error", () => ctx.err(`ctx: could not run ${command}; open ${file} yourself\n`));
  child.unref();
}
