// State store cost: save and restore of a ~10 MB project state through writeStateFile/readStateFile
// (budget: 100 ms each), and the throughput of each piece (msgpack vs JSON, LZ4, zstd-19, and the two
// zstd decoders: fzstd, which ctx uses, against node:zlib).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, zstdCompressSync, zstdDecompressSync } from "node:zlib";
import { decode, encode } from "@msgpack/msgpack";
import { decompress as fzstdDecompress } from "fzstd";
import * as lz4 from "lz4js";
import * as z from "zod/mini";
import { writeFileAtomic } from "../src/store/files/atomic-write.ts";
import { HOT_CODEC } from "../src/store/files/codecs.ts";
import { decodeContainer, encodeContainer } from "../src/store/files/container.ts";
import { encodeValidated } from "../src/store/files/quarantine.ts";
import { readStateFile, writeStateFile } from "../src/store/files/state-file.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BUDGET_MS = 100;
const MiB = 1024 * 1024;

const StateSchema = z.object({
  version: z.number(),
  project: z.object({ root: z.string(), branch: z.string(), updatedAt: z.number() }),
  files: z.array(
    z.object({
      path: z.string(),
      language: z.string(),
      bytes: z.number(),
      lines: z.number(),
      sha: z.string(),
      lastReadAt: z.number(),
      lastEditedAt: z.nullable(z.number()),
      summary: z.string(),
      symbols: z.array(z.string()),
    }),
  ),
  messages: z.array(
    z.object({
      id: z.string(),
      role: z.enum(["user", "assistant"]),
      at: z.number(),
      tokens: z.number(),
      text: z.string(),
      toolCalls: z.array(z.object({ name: z.string(), target: z.string() })),
    }),
  ),
  decisions: z.array(z.object({ id: z.string(), at: z.number(), text: z.string(), rationale: z.string() })),
  tasks: z.array(z.object({ id: z.string(), title: z.string(), status: z.string(), notes: z.string() })),
});
type State = z.infer<typeof StateSchema>;

const VOCABULARY = (
  "the a to of and in is for that it with on this we should be not as are function const return import " +
  "export async await type interface error file state lock write read test fails passes because when then " +
  "config schema index session transcript token budget compaction snapshot hook server request response " +
  "retry timeout cache user assistant message summary chunk search score vector module refactor bug fix"
).split(" ");

/** A deterministic pseudo-random generator (LCG), so every run benchmarks the same state. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state;
  };
  const pick = <T>(items: readonly T[]): T => items[next() % items.length] as T;
  const words = (count: number) => Array.from({ length: count }, () => pick(VOCABULARY)).join(" ");
  return { next, pick, words };
}

/** About 10 MB of msgpack: 8,000 file entries, 4,300 messages with text, decisions and tasks. */
export function buildState(): State {
  const g = generator(42);
  const languages = ["ts", "tsx", "py", "rs", "go", "md", "json"];
  const files = Array.from({ length: 8_000 }, (_, i) => ({
    path: `packages/${g.pick(["core", "cli", "server", "web", "shared"])}/src/${g.words(2).replace(/ /g, "-")}/file-${i}.${g.pick(languages)}`,
    language: g.pick(languages),
    bytes: g.next() % 200_000,
    lines: g.next() % 4_000,
    sha: (g.next().toString(16) + g.next().toString(16) + g.next().toString(16)).padEnd(40, "0"),
    lastReadAt: 1_767_225_600_000 + (g.next() % 1_000_000_000),
    lastEditedAt: g.next() % 3 === 0 ? null : 1_767_225_600_000 + (g.next() % 1_000_000_000),
    summary: g.words(25 + (g.next() % 40)),
    symbols: Array.from(
      { length: g.next() % 12 },
      () => `${g.pick(VOCABULARY)}${g.pick(["Handler", "Schema", "Store", ""])}`,
    ),
  }));
  const messages = Array.from({ length: 4_300 }, (_, i) => {
    const code =
      g.next() % 4 === 0
        ? `\n\`\`\`ts\nconst ${g.pick(VOCABULARY)}Value = await read(${g.next() % 100});\n\`\`\`\n`
        : "";
    return {
      id: `msg-${i.toString().padStart(6, "0")}`,
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      at: 1_767_225_600_000 + i * 45_000,
      tokens: g.next() % 3_000,
      text: `${g.words(120 + (g.next() % 180))}${code}`,
      toolCalls: Array.from({ length: g.next() % 4 }, () => ({
        name: g.pick(["Read", "Edit", "Bash", "Grep"]),
        target: g.words(3),
      })),
    };
  });
  const decisions = Array.from({ length: 300 }, (_, i) => ({
    id: `d${i}`,
    at: 1_767_225_600_000 + i,
    text: g.words(30),
    rationale: g.words(60),
  }));
  const tasks = Array.from({ length: 200 }, (_, i) => ({
    id: `t${i}`,
    title: g.words(8),
    status: g.pick(["open", "done", "blocked"]),
    notes: g.words(40),
  }));
  return {
    version: 1,
    project: { root: "/home/dev/work/monorepo", branch: "main", updatedAt: 1_767_225_600_000 },
    files,
    messages,
    decisions,
    tasks,
  };
}

/** Median wall time of `fn` in ms over `runs` runs, after one warm-up run. */
async function medianMs(fn: () => unknown, runs = RUNS): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return round(times[Math.floor(times.length / 2)] ?? Number.NaN);
}

const round = (value: number) => Math.round(value * 10) / 10;
const mibPerSecond = (bytes: number, ms: number) => round(bytes / MiB / (ms / 1000));

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "ctx-bench-store-"));
  try {
    const state = buildState();
    const payload = encode(state);
    const json = new TextEncoder().encode(JSON.stringify(state));
    const path = join(dir, ".ctx", "state.ctx");
    mkdirSync(join(dir, ".ctx"), { recursive: true, mode: 0o700 });

    // What ships: the hook-path codec (zstd-fast through native zstd; LZ4 on a Node before 22.15), and a
    // capture's state written as writeProjectState writes it (ctx's own state, not validated again; each read
    // validates). The generic writer, which validates first, beside it.
    const saveMs = await medianMs(async () =>
      writeFileAtomic(path, encodeValidated(path, StateSchema, state, HOT_CODEC, { trusted: true }).bytes),
    );
    const saveValidatedMs = await medianMs(() => writeStateFile(path, StateSchema, state, { codec: HOT_CODEC }));
    const restoreMs = await medianMs(() => readStateFile(path, StateSchema));
    // The codec used before, beside it.
    const lz4Path = join(dir, ".ctx", "state-lz4.ctx");
    const saveLz4Ms = await medianMs(() => writeStateFile(lz4Path, StateSchema, state, { codec: "lz4" }));
    const restoreLz4Ms = await medianMs(() => readStateFile(lz4Path, StateSchema));
    const validateMs = await medianMs(() => z.safeParse(StateSchema, state));
    const container = encodeContainer(state, HOT_CODEC);
    const encodeContainerMs = await medianMs(() => encodeContainer(state, HOT_CODEC));
    const writeAtomicMs = await medianMs(() => writeFileAtomic(path, container));
    const readFileMs = await medianMs(() => readFile(path));
    const decodeContainerMs = await medianMs(() => decodeContainer(container, path));

    const msgpackEncodeMs = await medianMs(() => encode(state));
    const msgpackDecodeMs = await medianMs(() => decode(payload));
    const jsonEncodeMs = await medianMs(() => new TextEncoder().encode(JSON.stringify(state)));
    const jsonDecodeMs = await medianMs(() => JSON.parse(new TextDecoder().decode(json)));

    const lz4Frame = lz4.compress(payload);
    const lz4CompressMs = await medianMs(() => lz4.compress(payload));
    const lz4DecompressMs = await medianMs(() => lz4.decompress(lz4Frame, payload.length));

    // zstd-19 runs at about 1-2 MiB/s: one run on a 4 MiB slice of the payload keeps the bench short.
    const slice = payload.subarray(0, 4 * MiB);
    const level19 = { params: { [constants.ZSTD_c_compressionLevel]: 19 }, pledgedSrcSize: slice.length };
    const zstdStart = performance.now();
    const zstdFrame = zstdCompressSync(slice, level19);
    const zstdCompressMs = round(performance.now() - zstdStart);
    const fzstdMs = await medianMs(() => fzstdDecompress(zstdFrame));
    const zlibZstdMs = await medianMs(() => zstdDecompressSync(zstdFrame));

    return {
      stateBytes: {
        msgpack: payload.length,
        json: json.length,
        lz4: lz4Frame.length,
        shipped: container.length,
        zstd19Of4MiB: zstdFrame.length,
      },
      saveState10MB: { ms: saveMs, budgetMs: BUDGET_MS, withinBudget: saveMs <= BUDGET_MS, codec: HOT_CODEC },
      saveState10MBValidated: { ms: saveValidatedMs, budgetMs: BUDGET_MS, withinBudget: saveValidatedMs <= BUDGET_MS },
      restoreState10MB: { ms: restoreMs, budgetMs: BUDGET_MS, withinBudget: restoreMs <= BUDGET_MS, codec: HOT_CODEC },
      lz4Beside: { saveMs: saveLz4Ms, restoreMs: restoreLz4Ms },
      // Where the time goes: validate + encodeContainer (msgpack, compression, SHA-256) + write (temp, fsync, rename).
      saveStepsMs: { validate: validateMs, encodeContainer: encodeContainerMs, writeFileAtomic: writeAtomicMs },
      restoreStepsMs: { readFile: readFileMs, decodeContainer: decodeContainerMs, validate: validateMs },
      msgpack: {
        encodeMs: msgpackEncodeMs,
        encodeMiBps: mibPerSecond(payload.length, msgpackEncodeMs),
        decodeMs: msgpackDecodeMs,
        decodeMiBps: mibPerSecond(payload.length, msgpackDecodeMs),
      },
      json: {
        encodeMs: jsonEncodeMs,
        encodeMiBps: mibPerSecond(json.length, jsonEncodeMs),
        decodeMs: jsonDecodeMs,
        decodeMiBps: mibPerSecond(json.length, jsonDecodeMs),
      },
      lz4: {
        compressMiBps: mibPerSecond(payload.length, lz4CompressMs),
        decompressMiBps: mibPerSecond(payload.length, lz4DecompressMs),
        ratio: round(payload.length / lz4Frame.length),
      },
      zstd19: {
        compressMiBps: mibPerSecond(slice.length, zstdCompressMs),
        ratio: round(slice.length / zstdFrame.length),
        decompressFzstdMiBps: mibPerSecond(slice.length, fzstdMs),
        decompressNodeZlibMiBps: mibPerSecond(slice.length, zlibZstdMs),
      },
      runs: RUNS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
