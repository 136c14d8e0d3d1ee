// `ctx export <session-id…> --out <file> [--json] [--force]`: sessions of this machine as one redacted,
// checksummed bundle another machine imports (transplant/bundle-export.ts; docs/export-import.md).
import type { Command } from "commander";
import { loadConfig } from "../../config/load.ts";
import { findProjectRoot } from "../../config/paths.ts";
import { resolveIndexPath } from "../../search/paths.ts";
import type { AnnotationsSource } from "../../transplant/bundle-export.ts";
import type { ExportReport } from "../../transplant/bundle-report.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

interface ExportFlags {
  out: string;
  json?: boolean;
  force?: boolean;
}

/** Where the bundle's annotations come from: the session library (search/session-library.ts) unless a test gives another. */
export interface ExportCommandDeps {
  annotations?: AnnotationsSource;
}

export function registerExportCommand(program: Command, ctx: CliContext, deps: ExportCommandDeps = {}): void {
  program
    .command("export")
    .description(COMMANDS.export.description)
    .argument("<id...>", "the sessions (as `ctx search` shows them)")
    .requiredOption("--out <file>", "the bundle to write (a new file is 0600)")
    .option("--force", "write through a symbolic link at --out")
    .option("--json", "print JSON for scripts")
    .action(async (ids: string[], flags: ExportFlags) => {
      const config = loadConfig({ projectRoot: findProjectRoot(ctx.cwd, ctx.env), env: ctx.env });
      const { exportSessions } = await import("../../transplant/bundle-export.ts");
      const { resolve } = await import("node:path");
      const report = await exportSessions({
        ids,
        out: resolve(ctx.cwd, flags.out),
        force: flags.force === true,
        indexPath: resolveIndexPath(ctx.env),
        env: ctx.env,
        now: new Date(),
        allowlist: config.redaction.allowlist,
        annotations:
          deps.annotations ??
          (async (ids) => (await import("../../search/session-library.ts")).annotationsOf(ctx.env, ids)),
      });
      ctx.out(flags.json === true ? formatJson(report) : exportText(report));
    });
}

function exportText(report: ExportReport): string {
  const lines = report.sessions.map(
    (session) =>
      `  ${session.sessionId}  ${oneLine(session.title)}  (${oneLine(session.project)}, ${session.files} file(s), ${session.bytes} bytes)`,
  );
  return [`exported ${report.sessions.length} session(s), redacted, to ${report.out}`, ...lines, ""].join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
