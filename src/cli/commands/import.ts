// `ctx import <file> [--json] [--force] [--checkout <dir>]`: a bundle's sessions placed into Claude Code's folder for
// this machine's checkout of their project, each printed with the command that resumes it
// (transplant/bundle-import.ts; docs/export-import.md).
import type { Command } from "commander";
import { claudeConfigDir } from "../../config/claude-paths.ts";
import type { AnnotationsSink } from "../../transplant/bundle-import.ts";
import type { ImportReport } from "../../transplant/bundle-report.ts";
import { askCheckoutOn } from "../checkout-question.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";

interface ImportFlags {
  json?: boolean;
  force?: boolean;
  checkout?: string;
}

/** Where the bundle's annotations go: the session library (search/session-library.ts adoptAnnotation) unless a test
 *  gives another. */
export interface ImportCommandDeps {
  annotations?: AnnotationsSink;
}

export function registerImportCommand(program: Command, ctx: CliContext, deps: ImportCommandDeps = {}): void {
  program
    .command("import")
    .description(COMMANDS.import.description)
    .argument("<file>", "a bundle `ctx export` wrote")
    .option("--checkout <dir>", "this machine's checkout of the sessions' project (default: found by its git remote)")
    .option("--force", "replace a different copy of a session already in Claude Code's folder")
    .option("--json", "print JSON for scripts")
    .action(async (file: string, flags: ImportFlags) => {
      const { resolve } = await import("node:path");
      const { importBundle } = await import("../../transplant/bundle-import.ts");
      const { refuseCheckoutQuestion } = await import("../../transplant/locate-checkout.ts");
      const report = await importBundle({
        path: resolve(ctx.cwd, file),
        force: flags.force === true,
        env: ctx.env,
        cwd: ctx.cwd,
        ...(flags.checkout === undefined ? {} : { checkout: resolve(ctx.cwd, flags.checkout) }),
        claudeDir: claudeConfigDir(ctx.env),
        // Only a terminal is asked for the checkout's folder; anything else gets the `--checkout <dir>` hint.
        askCheckout: ctx.terminal === undefined ? refuseCheckoutQuestion : askCheckoutOn(ctx.terminal),
        now: new Date(),
        annotations: deps.annotations ?? librarySink(ctx),
      });
      if (flags.json === true) return ctx.out(formatJson(report));
      ctx.err(importNotice(report));
      ctx.out(report.sessions.map((session) => `${session.resumeCommand}\n`).join(""));
    });
}

/** The bundle's annotations into this person's library, each checked by the library's own rules. */
function librarySink(ctx: CliContext): AnnotationsSink {
  return async (sessionId, annotation) => {
    const { adoptAnnotation } = await import("../../search/session-library.ts");
    const dropped = await adoptAnnotation({ env: ctx.env, now: () => new Date() }, sessionId, annotation);
    if (dropped.length > 0) {
      ctx.err(`ctx: ${sessionId}: the bundle's ${dropped.join(", ")} not kept (refused by the library's rules)\n`);
    }
  };
}

/** What was placed where (stderr: stdout keeps the resume commands alone, one a line). */
function importNotice(report: ImportReport): string {
  const lines = report.sessions.map((session) => {
    const done =
      session.outcome === "written"
        ? "written to"
        : session.outcome === "replaced"
          ? "replaced"
          : "already there, unchanged:";
    return `ctx: session ${session.sessionId} "${oneLine(session.title)}" (${oneLine(session.project)}): ${done} ${session.transcriptPath} (${session.files} file(s), ${session.rewrittenCwdFields} cwd field(s) moved to ${session.checkout})`;
  });
  return [...lines, "ctx: the transcripts are the REDACTED copies the bundle holds", ""].join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
