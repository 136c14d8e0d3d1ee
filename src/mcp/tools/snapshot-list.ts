// ctx_snapshot_list: the project's snapshots (taken before each compaction, or by hand), newest first.
import * as z from "zod/mini";
import { listSnapshots } from "../../store/snapshots/snapshots.ts";
import { defineTool } from "../define-tool.ts";
import { formatSnapshotLine, SnapshotListingSchema, toSnapshotListing } from "../shared/snapshot-listing.ts";

export const SnapshotListOutputSchema = z.object({ snapshots: z.array(SnapshotListingSchema) });

export const snapshotListTool = defineTool({
  name: "ctx_snapshot_list",
  title: "ctx snapshot list",
  description:
    "List this project's context snapshots, newest first: id, trigger (auto = before a compaction, manual, " +
    "save, checkpoint), time, session, size and whether it is pinned (pinned ones are never pruned). " +
    "verbose adds what each saved state holds and the size of the transcript kept with it. Read one with " +
    "ctx_snapshot_restore {id}.",
  input: {
    verbose: z.optional(z.boolean()).check(z.describe("Add state counts and transcript size for each snapshot.")),
  },
  output: SnapshotListOutputSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handle: async ({ verbose }, deps) => {
    const snapshots = (await listSnapshots(deps.projectRoot)).map((entry) =>
      toSnapshotListing(entry, verbose === true),
    );
    const text =
      snapshots.length === 0
        ? "ctx: no snapshots in this project yet (one is taken before each compaction)."
        : [`${snapshots.length} snapshot(s), newest first:`, ...snapshots.map(formatSnapshotLine)].join("\n");
    return { text, structured: { snapshots } };
  },
});
