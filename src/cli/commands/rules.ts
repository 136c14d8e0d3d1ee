// `ctx rules list` / `ctx rules check`: the CLAUDE.md rules marked (ENFORCED) or (CRITICAL) that ctx re-injects
// after each compaction, and which of them the latest compaction summary lost (method: src/core/rules/check.ts).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import * as z from "zod/mini";
import { loadConfig } from "../../config/load.ts";
import { checkRulesAgainstSummary } from "../../core/rules/check.ts";
import { CtxError } from "../../errors.ts";
import { discoverClaudeMdRules } from "../../store/rules/claude-md.ts";
import { readSessionsSeen } from "../../store/sessions/seen.ts";
import { readLatestCompactSummary } from "../../store/transcript/compact-summary.ts";
import type { CliContext } from "../command-io.ts";
import { COMMANDS } from "../help.ts";
import { formatJson } from "../output.ts";
import { addProjectFlags, type ProjectFlags, projectRootFor } from "../project-flags.ts";

const RuleReportSchema = z.object({ text: z.string(), marker: z.string(), source: z.string(), line: z.int() });

export const RulesListReportSchema = z.object({
  files: z.array(
    z.object({ path: z.string(), scope: z.string(), hops: z.int(), importedFrom: z.nullable(z.string()) }),
  ),
  rules: z.array(RuleReportSchema),
  skipped: z.array(z.object({ target: z.string(), from: z.string(), reason: z.string() })),
});
export type RulesListReport = z.infer<typeof RulesListReportSchema>;

export const RulesCheckReportSchema = z.object({
  /** Where the summary came from: a transcript path or a file given with --summary-file. */
  summarySource: z.string(),
  threshold: z.number(),
  checks: z.array(
    z.object({ rule: RuleReportSchema, fate: z.enum(["kept", "paraphrased", "lost"]), overlap: z.number() }),
  ),
  lost: z.int(),
});
export type RulesCheckReport = z.infer<typeof RulesCheckReportSchema>;

interface CheckFlags extends ProjectFlags {
  transcript?: string;
  session?: string;
  summaryFile?: string;
}

export function registerRulesCommand(program: Command, ctx: CliContext): void {
  const rules = program.command("rules").description(COMMANDS.rules.description);
  addProjectFlags(
    rules.command("list").description("the marked rules of the CLAUDE.md cascade and its imports"),
  ).action((flags: ProjectFlags) => {
    const cascade = discoverClaudeMdRules(projectRootFor(ctx, flags), ctx.env);
    if (flags.json) return ctx.out(formatJson(cascade satisfies RulesListReport));
    const lines = [`${cascade.rules.length} rule(s) from ${cascade.files.length} file(s):`];
    for (const rule of cascade.rules) lines.push("", `${rule.source}:${rule.line}`, rule.text);
    for (const skip of cascade.skipped)
      lines.push(`(import not followed: ${skip.target} from ${skip.from}: ${skip.reason})`);
    ctx.out(`${lines.join("\n")}\n`);
  });
  addProjectFlags(
    rules
      .command("check")
      .description("which rules the latest compaction summary lost (exit 1 when any was lost)")
      .option("--transcript <path>", "the transcript to read (default: the newest session ctx recorded here)")
      .option("--session <id>", "a session ctx recorded in this project")
      .option("--summary-file <path>", "compare with this text instead (e.g. a saved PostCompact compact_summary)"),
  ).action(async (flags: CheckFlags) => {
    const root = projectRootFor(ctx, flags);
    const threshold = loadConfig({ projectRoot: root, env: ctx.env }).rules.overlapThreshold;
    const { rules: found } = discoverClaudeMdRules(root, ctx.env);
    const summary = await summaryFor(ctx, root, flags);
    const checks = checkRulesAgainstSummary(found, summary.text, threshold);
    const report: RulesCheckReport = {
      summarySource: summary.source,
      threshold,
      checks,
      lost: checks.filter((check) => check.fate === "lost").length,
    };
    if (report.lost > 0) ctx.setExitCode(1);
    if (flags.json) return ctx.out(formatJson(report));
    const lines = [`${found.length} rule(s) checked against the compaction summary in ${summary.source}:`];
    for (const check of checks) {
      const first = check.rule.text.split("\n")[0] ?? "";
      lines.push(`${check.fate.padEnd(11)} ${Math.round(check.overlap * 100)}%  ${first.trim()}`);
    }
    lines.push(
      report.lost === 0
        ? "None lost. (ctx re-injects them after each compaction anyway.)"
        : `${report.lost} lost from the summary; ctx re-injects them verbatim after compaction when rules.reinject is on.`,
    );
    ctx.out(`${lines.join("\n")}\n`);
  });
}

async function summaryFor(ctx: CliContext, root: string, flags: CheckFlags): Promise<{ text: string; source: string }> {
  if (flags.summaryFile !== undefined) {
    const path = resolve(ctx.cwd, flags.summaryFile);
    try {
      return { text: readFileSync(path, "utf8"), source: path };
    } catch (error) {
      throw new CtxError("NOT_FOUND", `cannot read ${path}`, { hint: "pass a readable text file", cause: error });
    }
  }
  const transcript =
    flags.transcript !== undefined ? resolve(ctx.cwd, flags.transcript) : await recordedTranscript(root, flags.session);
  const summary = await readLatestCompactSummary(transcript);
  if (summary === null) {
    throw new CtxError("NOT_FOUND", `${transcript} has no compaction summary`, {
      hint: "the session has not been compacted yet; run this after a compaction, or pass --transcript or --summary-file",
    });
  }
  return { text: summary.text, source: transcript };
}

async function recordedTranscript(root: string, sessionId: string | undefined): Promise<string> {
  const sessions = (await readSessionsSeen(root))?.sessions ?? [];
  const session = sessionId === undefined ? sessions[0] : sessions.find((s) => s.sessionId === sessionId);
  if (session?.transcriptPath == null) {
    throw new CtxError(
      "NOT_FOUND",
      sessionId === undefined ? "no session recorded in this project" : `no session ${sessionId} recorded here`,
      {
        hint: "pass --transcript <path> (Claude Code keeps them under ~/.claude/projects/), or run `ctx init` so sessions are recorded",
      },
    );
  }
  return session.transcriptPath;
}
