// ctx_snapshot_restore: one compaction snapshot's saved state rendered like ctx_restore. It reads only:
// restoring files or the current state from a snapshot is left to the person (`ctx snapshot restore`).
import * as z from "zod/mini";
import { CtxError } from "../../errors.ts";
import { RestoreReportSchema } from "../../store/context/restore.ts";
import { TIME_ID_PATTERN } from "../../store/snapshots/time-id.ts";
import { defineTool } from "../define-tool.ts";
import { RestoreRenderInputShape, renderRestore } from "../shared/restore-result.ts";

export const snapshotRestoreTool = defineTool({
  name: "ctx_snapshot_restore",
  title: "ctx snapshot restore",
  description:
    "Read the working context kept in one snapshot (taken before a compaction, or by hand), rendered like " +
    "ctx_restore: task, todos, plan, decisions, preferences, files. Use ctx_snapshot_list for the ids. " +
    "It returns text only; no file and no saved state is changed.",
  input: {
    id: z
      .string()
      .check(
        z.regex(TIME_ID_PATTERN),
        z.describe("A snapshot id from ctx_snapshot_list, e.g. 20261122T031100123Z-3f9a1c."),
      ),
    ...RestoreRenderInputShape,
  },
  output: RestoreReportSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ id, mode, sections }, deps) => {
    const { text, report } = await renderRestore(deps, { kind: "snapshot", id }, { mode, sections });
    if (report.found) return { text, structured: report };
    throw new CtxError("NOT_FOUND", `no snapshot ${id} in this project`, {
      hint: "ctx_snapshot_list lists the snapshots there are (retention may have pruned old ones)",
    });
  },
});
