// What `ctx init` tells the person: the `--json` report (schema below) and the human lines, one per file,
// followed by the next steps.
import * as z from "zod/mini";
import type { CommandChoice } from "./command-choice.ts";
import { describeCommand } from "./hooks-spec.ts";
import { type InitMode, isAlreadySetUp, type PlannedChange } from "./plan.ts";

export const InitReportSchema = z.object({
  project: z.string(),
  mode: z.enum(["install", "remove"]),
  dryRun: z.boolean(),
  alreadySetUp: z.boolean(),
  command: z.object({ command: z.string(), args: z.array(z.string()), reason: z.string() }),
  changes: z.array(
    z.object({
      file: z.string(),
      action: z.enum(["create", "update", "unchanged", "remove", "skip"]),
      details: z.array(z.string()),
    }),
  ),
  warnings: z.array(z.string()),
});
export type InitReport = z.infer<typeof InitReportSchema>;

export interface InitOutcome {
  project: string;
  mode: InitMode;
  dryRun: boolean;
  command: CommandChoice;
  changes: readonly PlannedChange[];
  warnings: readonly string[];
}

export function buildInitReport(outcome: InitOutcome): InitReport {
  return InitReportSchema.parse({
    project: outcome.project,
    mode: outcome.mode,
    dryRun: outcome.dryRun,
    alreadySetUp: outcome.mode === "install" && isAlreadySetUp(outcome.changes),
    command: { command: outcome.command.command, args: outcome.command.prefixArgs, reason: outcome.command.reason },
    changes: outcome.changes.map(({ file, action, details }) => ({ file, action, details })),
    warnings: [...outcome.warnings],
  });
}

const DONE: Record<InitReport["changes"][number]["action"], string> = {
  create: "created",
  update: "updated",
  unchanged: "unchanged",
  remove: "removed",
  skip: "skipped",
};
const WOULD: Record<InitReport["changes"][number]["action"], string> = {
  create: "would create",
  update: "would update",
  unchanged: "unchanged",
  remove: "would remove",
  skip: "would skip",
};

export function formatInitReport(report: InitReport): string {
  const verbs = report.dryRun ? WOULD : DONE;
  const command = describeCommand({ command: report.command.command, prefixArgs: report.command.args });
  const title = report.mode === "remove" ? "ctx init --remove" : "ctx init";
  const lines = [`${title}${report.dryRun ? " --dry-run (nothing written)" : ""}: ${report.project}`];
  if (report.alreadySetUp) lines.push("ctx is already set up here: nothing to change.");
  if (report.mode === "install") lines.push(`command: ${command}  (${report.command.reason})`);
  lines.push("");
  const verbWidth = Math.max(...Object.values(verbs).map((verb) => verb.length));
  const fileWidth = Math.max(...report.changes.map((change) => change.file.length));
  for (const change of report.changes) {
    const head = `  ${verbs[change.action].padEnd(verbWidth)}  ${change.file.padEnd(fileWidth)}`;
    const [first, ...rest] = change.details;
    lines.push(first === undefined ? head.trimEnd() : `${head}  ${first}`);
    for (const detail of rest) lines.push(`${" ".repeat(head.length)}  ${detail}`);
  }
  lines.push("", ...nextSteps(report));
  return `${lines.join("\n")}\n`;
}

function nextSteps(report: InitReport): string[] {
  if (report.dryRun) return [`Run the same command without --dry-run to apply it.`];
  if (report.mode === "remove") {
    return ["Next: restart Claude Code so it drops ctx's hooks and MCP server. Your saved context in .ctx/ is kept."];
  }
  if (report.alreadySetUp) return ["Next: `ctx doctor` checks the whole setup."];
  return [
    "Next steps:",
    "  1. ctx doctor            check the setup",
    "  2. restart Claude Code   it reads hooks and MCP servers at start",
    '  3. approve the "ctx" MCP server (and trust this folder) if Claude Code asks',
  ];
}
