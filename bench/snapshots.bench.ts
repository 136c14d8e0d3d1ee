// Snapshot store cost: createSnapshot (LZ4, read-back verification included) on 1, 10 and 50 MB
// transcripts, in process and as a whole cold process (the pre-compact hook's budget on 10 MB, a ratio to
// `node -e 0`: bench/budgets.ts; the snapshot is most of it); the zstd-19 recompression of the 10 MB snapshot (off the hook path);
// and LZ4 vs zstd-19 compression ratios on the real transcript fixtures.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { constants, zstdCompressSync } from "node:zlib";
import * as lz4 from "lz4js";
import * as z from "zod/mini";
import { decodeContainer, encodeContainer } from "../src/store/files/container.ts";
import { recompressSnapshot } from "../src/store/snapshots/archive-worker.ts";
import { createSnapshot } from "../src/store/snapshots/snapshots.ts";
import { FIXTURE } from "../tests/helpers/claude-projects.ts";
import { PROCESS_BUDGET_RATIOS, ratioToNode } from "./budgets.ts";
import { summarize, timeProcess } from "./process-timing.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
const fixtures = join(repo, "tests", "fixtures");
const spotter = FIXTURE.long;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const MiB = 1024 * 1024;
const round = (value: number) => Math.round(value * 10) / 10;

// Stands in for the context state (its schema is written elsewhere): todos, files, decisions, ~100 KB.
const StateSchema = z.object({
  todos: z.array(z.object({ content: z.string(), status: z.string() })),
  files: z.array(z.object({ path: z.string(), sha256: z.string(), reads: z.number(), writes: z.number() })),
  decisions: z.array(z.object({ text: z.string(), at: z.string() })),
});
const state: z.infer<typeof StateSchema> = {
  todos: Array.from({ length: 30 }, (_, i) => ({ content: `todo ${i}: refactor module ${i}`, status: "pending" })),
  files: Array.from({ length: 400 }, (_, i) => ({
    path: `src/area-${i % 17}/module-${i}.ts`,
    sha256: (i * 2_654_435_761).toString(16).padStart(64, "0"),
    reads: i % 9,
    writes: i % 4,
  })),
  decisions: Array.from({ length: 150 }, (_, i) => ({
    text: `decision ${i}: keep the store's files as the truth and rebuild the index from them when needed`,
    at: new Date(1_790_000_000_000 + i * 60_000).toISOString(),
  })),
};

/** `megabytes` MiB of real transcript: the spotter session repeated, cut at a line end. */
function makeTranscript(dir: string, megabytes: number): string {
  const chunk = readFileSync(spotter);
  const target = megabytes * MiB;
  const parts: Buffer[] = [];
  for (let size = 0; size < target; size += chunk.length) parts.push(chunk);
  const whole = Buffer.concat(parts);
  const path = join(dir, `transcript-${megabytes}mb.jsonl`);
  writeFileSync(path, whole.subarray(0, whole.indexOf(10, target - 1) + 1));
  return path;
}

async function timeCreate(dir: string, megabytes: number, runs: number) {
  const transcriptPath = makeTranscript(dir, megabytes);
  const project = join(dir, `project-${megabytes}`);
  mkdirSync(project);
  const create = () =>
    createSnapshot(
      project,
      { sessionId: "bench", trigger: "auto", state, stateSchema: StateSchema, transcriptPath },
      { codec: "lz4" },
    );
  let last = await create(); // warm-up (a cold process is measured separately)
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = await create();
    samples.push(performance.now() - started);
  }
  const transcriptBytes = statSync(transcriptPath).size;
  // Where the time goes, with the same primitives createSnapshot uses.
  const value = { meta: {}, state, transcript: readFileSync(transcriptPath) };
  const encodeStart = performance.now();
  const encoded = encodeContainer(value, "lz4");
  const encodeMs = performance.now() - encodeStart;
  const decodeStart = performance.now();
  decodeContainer(encoded, "bench");
  const decodeMs = performance.now() - decodeStart;
  return {
    project,
    transcriptPath,
    snapshotId: last.snapshot.id,
    result: {
      transcriptBytes,
      snapshotBytes: last.snapshot.fileBytes,
      lz4Ratio: round(transcriptBytes / last.snapshot.fileBytes),
      ...summarize(samples),
      steps: { encodeContainerMs: round(encodeMs), verifyDecodeMs: round(decodeMs) },
    },
  };
}

/** One cold process creating one snapshot: module loading, a cold JIT, the write and the verification. */
function timeColdProcess(dir: string, transcriptPath: string) {
  const script = join(dir, "cold-snapshot.mjs");
  writeFileSync(
    script,
    `import * as z from ${JSON.stringify(import.meta.resolve("zod/mini"))};
import { createSnapshot } from ${JSON.stringify(join(repo, "src", "store", "snapshots", "snapshots.ts"))};
const Schema = z.object({ todos: z.array(z.object({ content: z.string(), status: z.string() })) });
await createSnapshot(process.argv[2], { sessionId: "cold", trigger: "auto", state: { todos: [] },
  stateSchema: Schema, transcriptPath: process.argv[3] }, { codec: "lz4" });\n`,
  );
  const project = join(dir, "project-cold");
  mkdirSync(project);
  const runs = Math.max(3, Math.min(RUNS, 10));
  const floor = timeProcess(process.execPath, ["-e", "0"], { runs, cwd: repo });
  const cold = timeProcess(process.execPath, [script, project, transcriptPath], { runs, cwd: repo });
  return {
    nodeFloor: floor,
    process: cold,
    overFloorMs: round(cold.medianMs - floor.medianMs),
    ratioToNode: ratioToNode(cold.medianMs, floor.medianMs),
  };
}

/** LZ4 and zstd-19 on each real transcript fixture, as they would be stored (raw bytes, no container). */
function fixtureRatios() {
  const files = listJsonl(fixtures).filter((path) => !path.includes(`${join("transcripts", "synthetic")}`));
  let raw = 0;
  let lz4Bytes = 0;
  let zstdBytes = 0;
  let lz4Ms = 0;
  let zstdMs = 0;
  const perFile: Record<string, { bytes: number; lz4Ratio: number; zstd19Ratio: number }> = {};
  for (const path of files) {
    const bytes = readFileSync(path);
    const lz4Start = performance.now();
    const lz4Size = lz4.compress(bytes).length;
    const zstdStart = performance.now();
    const zstdSize = zstd19(bytes).length;
    zstdMs += performance.now() - zstdStart;
    lz4Ms += zstdStart - lz4Start;
    raw += bytes.length;
    lz4Bytes += lz4Size;
    zstdBytes += zstdSize;
    perFile[relative(fixtures, path)] = {
      bytes: bytes.length,
      lz4Ratio: round(bytes.length / lz4Size),
      zstd19Ratio: round(bytes.length / zstdSize),
    };
  }
  return {
    all: { bytes: raw, lz4Ratio: round(raw / lz4Bytes), zstd19Ratio: round(raw / zstdBytes) },
    // Throughput on real, non-repeating sessions: what a recompression of a real snapshot costs.
    lz4MiBps: round(raw / MiB / (lz4Ms / 1000)),
    zstd19MiBps: round(raw / MiB / (zstdMs / 1000)),
    zstd19SmallerThanLz4Percent: round((1 - zstdBytes / lz4Bytes) * 100),
    perFile,
  };
}

function zstd19(data: Uint8Array): Uint8Array {
  return zstdCompressSync(data, {
    params: { [constants.ZSTD_c_compressionLevel]: 19 },
    pledgedSrcSize: data.length,
  });
}

function listJsonl(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-snapshots-"));
  try {
    const oneMb = await timeCreate(dir, 1, RUNS);
    const tenMb = await timeCreate(dir, 10, RUNS);
    const fiftyMb = await timeCreate(dir, 50, Math.max(2, Math.ceil(RUNS / 2)));
    const cold10Mb = timeColdProcess(dir, tenMb.transcriptPath);

    const started = performance.now();
    const recompressed = await recompressSnapshot(tenMb.project, tenMb.snapshotId);
    const recompressMs = performance.now() - started;
    const payloadBytes = tenMb.result.transcriptBytes;

    return {
      createSnapshotLz4: { "1MB": oneMb.result, "10MB": tenMb.result, "50MB": fiftyMb.result },
      preCompact10MB: {
        createSnapshotMedianMs: tenMb.result.medianMs,
        coldProcess: cold10Mb,
        budgetRatio: PROCESS_BUDGET_RATIOS.preCompact10MB,
        withinBudget: cold10Mb.ratioToNode <= PROCESS_BUDGET_RATIOS.preCompact10MB,
        note: "cold process = node start + loading the store from source + one 10 MB snapshot; no state extraction",
      },
      recompressZstd19_10MB: {
        ms: round(recompressMs),
        MiBps: round(payloadBytes / MiB / (recompressMs / 1000)),
        lz4Bytes: recompressed?.beforeBytes,
        zstdBytes: recompressed?.afterBytes,
        note:
          "the 10 MB transcript repeats a 3 MB session, which zstd's long window exploits: real ratios and " +
          "throughput are in fixtureRatios",
      },
      fixtureRatios: fixtureRatios(),
      runs: RUNS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
