// The compaction-loss audit: the loss rate of every real compaction in the fixtures (tests/fixtures and, when
// present, /work/shared/fixtures), and the time of one audit (items + matching) on the long real session.
import { existsSync } from "node:fs";
import { measureCompactions, transcriptsWithCompactions } from "../tests/fixtures/audit/measure.ts";

const SHARED = "/work/shared/fixtures/transcripts/";
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

export async function run(): Promise<Record<string, unknown>> {
  const roots = [undefined, ...(existsSync(SHARED) ? [SHARED] : [])];
  const perCompaction = roots.flatMap((root) =>
    transcriptsWithCompactions(root).flatMap((path) =>
      measureCompactions(path, 0.6, root).map((m) => ({
        source: root === undefined ? "tests/fixtures" : "shared/fixtures",
        transcript: m.transcript,
        boundaryLine: m.boundaryLine,
        items: m.items.length,
        kept: m.kept,
        paraphrased: m.paraphrased,
        lost: m.lost,
        lossRate: m.lossRate,
        lostKinds: m.items.filter((item) => item.fate === "lost").map((item) => item.kind),
      })),
    ),
  );
  const long = transcriptsWithCompactions().find((path) => path.includes("4d5611e5"));
  const times: number[] = [];
  for (let i = 0; i < RUNS && long !== undefined; i += 1) {
    const start = performance.now();
    measureCompactions(long);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    perCompaction,
    extractAndAuditLongSessionMs: Number((times[Math.floor(times.length / 2)] ?? 0).toFixed(1)),
  };
}
