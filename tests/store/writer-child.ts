// Child process for durability.test.ts, run as `node tests/store/writer-child.ts <mode> <file> [count]`.
//   churn:  rewrites <file> forever (until SIGKILLed), alternating updateStateFile and withLock +
//           writeStateFile; prints "w <seq> <lockWaitMs>" after each write.
//   once:   one churn write, then exits normally.
//   count:  adds 1 to the counter in <file> [count] times with updateStateFile, then exits.
import * as z from "zod/mini";
import { withLock } from "../../src/store/files/lock.ts";
import { readStateFile, updateStateFile, writeStateFile } from "../../src/store/files/state-file.ts";

export const ChurnSchema = z.object({
  seq: z.number(),
  writer: z.number(),
  items: z.array(z.object({ seq: z.number(), text: z.string() })),
});
export type Churn = z.infer<typeof ChurnSchema>;
export const CounterSchema = z.object({ count: z.number() });

const WORDS = "lock state file write rename fsync kill writer reader version item text hook server".split(" ");

/**
 * Version `seq` of the churn file (50-150 KB of msgpack, text that compresses like prose): every item
 * carries seq, and the item count follows from it, so a mix of two versions cannot pass isCompleteChurn.
 */
export function churnValue(seq: number): Churn {
  let seed = seq;
  const word = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return WORDS[(seed >>> 16) % WORDS.length];
  };
  const items = Array.from({ length: 20 + (seq % 80) }, (_, i) => ({
    seq,
    text: `item ${i} of version ${seq}: ${Array.from({ length: 150 }, word).join(" ")}`,
  }));
  return { seq, writer: process.pid, items };
}

export function isCompleteChurn(value: Churn): boolean {
  return value.items.length === 20 + (value.seq % 80) && value.items.every((item) => item.seq === value.seq);
}

async function churn(path: string, rounds = Number.POSITIVE_INFINITY): Promise<void> {
  const lockOptions = { timeoutMs: 30_000 };
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    let waited = 0;
    let written: Churn;
    const next = (current: Churn | null): Churn => {
      waited = performance.now() - started;
      return churnValue((current?.seq ?? 0) + 1);
    };
    const codec = round % 2 === 0 ? "lz4" : "none";
    if (round % 2 === 0) {
      written = await updateStateFile(path, ChurnSchema, next, { codec, ...lockOptions });
    } else {
      written = await withLock(
        path,
        async () => writeStateFile(path, ChurnSchema, next(await readStateFile(path, ChurnSchema)), { codec }),
        lockOptions,
      );
    }
    process.stdout.write(`w ${written.seq} ${waited.toFixed(1)}\n`);
  }
}

async function count(path: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await updateStateFile(path, CounterSchema, (c) => ({ count: (c?.count ?? 0) + 1 }), {
      codec: "lz4",
      timeoutMs: 30_000,
    });
  }
}

if (import.meta.main) {
  const [mode, path, times] = process.argv.slice(2);
  if (path === undefined) throw new Error("usage: writer-child.ts churn|once|count <file> [count]");
  // The parent stops reading once it has killed a sibling lane; a closed pipe is no failure here.
  process.stdout.on("error", () => process.exit(0));
  if (mode === "churn") await churn(path);
  else if (mode === "once") await churn(path, 1);
  else if (mode === "count") await count(path, Number(times ?? "1"));
  else throw new Error(`unknown mode ${mode}`);
}
