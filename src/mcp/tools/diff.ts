// ctx_diff: which files the saved context tracks changed on disk since the save (modified, deleted),
// and which files appeared beside them.
import { relative } from "node:path";
import * as z from "zod/mini";
import { type DiffReport, DiffReportSchema, diffContext, diffReportOf } from "../../store/context/diff.ts";
import { defineTool } from "../define-tool.ts";
import { contextOpsDeps } from "../shared/context-tools.ts";

export const diffTool = defineTool({
  name: "ctx_diff",
  title: "ctx diff",
  description:
    "Compare the project files the saved context tracks with the disk now: modified and deleted since the " +
    "save (by content hash), and files added since the save in the same folders. Use after restoring a " +
    "context to learn what changed while it was away. Paths are absolute.",
  input: {
    name: z
      .optional(z.string().check(z.minLength(1), z.maxLength(64)))
      .check(z.describe("A named save to compare; default: the current state.")),
  },
  output: DiffReportSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ name }, deps) => {
    const source = name === undefined ? { kind: "current" as const } : { kind: "save" as const, name };
    const report = diffReportOf(await diffContext(contextOpsDeps(deps), source));
    if (!report.found) {
      const what = name === undefined ? "no context is saved for this project yet" : `there is no save named "${name}"`;
      return { text: `ctx: ${what}; nothing to compare.`, structured: report };
    }
    return { text: formatDiff(report, deps.projectRoot), structured: report };
  },
});

function formatDiff(output: DiffReport, projectRoot: string): string {
  const list = (label: string, paths: readonly string[]) =>
    paths.length === 0 ? [] : [`${label} (${paths.length}): ${paths.map((p) => relative(projectRoot, p)).join(", ")}`];
  const changes = [
    ...list("modified", output.modified),
    ...list("deleted", output.deleted),
    ...list("added since the save", output.added),
  ];
  return [
    `Compared with ${output.origin}, saved ${output.savedAt}:`,
    ...(changes.length === 0 ? ["no tracked file changed, and none was added beside them."] : changes),
    `unchanged: ${output.unchanged.length}; not compared (no hash): ${output.untracked.length}`,
  ].join("\n");
}
