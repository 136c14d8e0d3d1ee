// Child process for snapshots-durability.test.ts, run as
// `node tests/store/snapshot-writer-child.ts <mode> <projectRoot> <transcript> [count] [maxSnapshots]`.
//   churn: creates snapshots forever (until SIGKILLed), pinning, unpinning and pruning along the way;
//          prints "s <id>" after each snapshot is created and verified.
//   many:  creates [count] snapshots with retention maxSnapshots [maxSnapshots], printing "s <id>", then exits.
import * as z from "zod/mini";
import type { RetentionPolicy } from "../../src/core/snapshots/retention.ts";
import {
  createSnapshot,
  listSnapshots,
  pinSnapshot,
  pruneSnapshots,
  unpinSnapshot,
} from "../../src/store/snapshots/snapshots.ts";

export const ChurnStateSchema = z.object({
  seq: z.number(),
  writer: z.number(),
  items: z.array(z.object({ seq: z.number(), text: z.string() })),
});
export type ChurnState = z.infer<typeof ChurnStateSchema>;

/** A state whose parts all carry its seq, and whose size follows from it: a mix of two cannot pass. */
export function churnState(seq: number, writer: number): ChurnState {
  const items = Array.from({ length: 10 + (seq % 40) }, (_, i) => ({
    seq,
    text: `item ${i} of version ${seq} written by ${writer}: ${"decision ".repeat(20 + (i % 30))}`,
  }));
  return { seq, writer, items };
}

export function isCompleteChurnState(state: ChurnState): boolean {
  return state.items.length === 10 + (state.seq % 40) && state.items.every((item) => item.seq === state.seq);
}

const MiB = 1024 * 1024;
export const CHURN_RETENTION: RetentionPolicy = { maxSnapshots: 4, maxAgeDays: 30, maxTotalBytes: 500 * MiB };
const lockOptions = { timeoutMs: 30_000 };

async function create(root: string, transcriptPath: string, seq: number, retention: RetentionPolicy) {
  const { snapshot } = await createSnapshot(
    root,
    {
      sessionId: `writer-${process.pid}`,
      trigger: "auto",
      state: churnState(seq, process.pid),
      stateSchema: ChurnStateSchema,
      transcriptPath,
    },
    { codec: "lz4", retention, ...lockOptions },
  );
  process.stdout.write(`s ${snapshot.id}\n`);
  return snapshot.id;
}

async function churn(root: string, transcriptPath: string): Promise<void> {
  for (let seq = 1; ; seq++) {
    const id = await create(root, transcriptPath, seq, CHURN_RETENTION);
    // Writers are killed a few snapshots in: pin and unpin early and often so kills land in both.
    if (seq % 2 === 0) await pinSnapshot(root, id, lockOptions);
    else {
      for (const snapshot of await listSnapshots(root, lockOptions)) {
        if (snapshot.pinned) await unpinSnapshot(root, snapshot.id, lockOptions);
      }
    }
    if (seq % 3 === 0) await pruneSnapshots(root, CHURN_RETENTION, new Date(), lockOptions);
  }
}

if (import.meta.main) {
  const [mode, root, transcriptPath, count, maxSnapshots] = process.argv.slice(2);
  if (root === undefined || transcriptPath === undefined) {
    throw new Error("usage: snapshot-writer-child.ts churn|many <root> <transcript> [count] [maxSnapshots]");
  }
  // The parent stops reading once it has killed this writer; a closed pipe is no failure here.
  process.stdout.on("error", () => process.exit(0));
  if (mode === "churn") await churn(root, transcriptPath);
  else if (mode === "many") {
    const retention = { ...CHURN_RETENTION, maxSnapshots: Number(maxSnapshots ?? "1000") };
    for (let seq = 1; seq <= Number(count ?? "1"); seq++) await create(root, transcriptPath, seq, retention);
  } else throw new Error(`unknown mode ${mode}`);
}
