// Whole processes against one snapshot folder. (a) Two writers at a time create, pin, unpin and prune
// snapshots and are SIGKILLed at random moments, 60 times: after each round every listed snapshot reads
// back complete, the index agrees with the files (rebuilt when needed), no half-written file is ever
// listed, and the newest snapshot survives. (b) Two processes creating snapshots at once keep one
// consistent index, with and without pruning.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { catalogMatchesFolder, readCatalog, scanSnapshotFolder } from "../../src/store/snapshots/catalog.ts";
import {
  listSnapshots,
  pruneSnapshots,
  readSnapshot,
  type SnapshotEntry,
} from "../../src/store/snapshots/snapshots.ts";
import { FIXTURE as SAMPLES } from "../helpers/claude-projects.ts";
import { CHURN_RETENTION, ChurnStateSchema, isCompleteChurnState } from "./snapshot-writer-child.ts";

const CHILD = join(import.meta.dirname, "snapshot-writer-child.ts");
const FIXTURE = SAMPLES.long;
const ROUNDS = 30;
const WRITERS_PER_ROUND = 2;

let root: string;
let snapshotsDir: string;
let transcriptPath: string;
let transcript: Buffer;
/** How often a kill left index.json out of step with the files (then listing rebuilt it). */
let staleIndexes = 0;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-snapshot-durability-"));
  snapshotsDir = join(root, ".ctx", "snapshots");
  transcriptPath = join(root, "transcript.jsonl");
  // Half a megabyte of a real transcript, cut at a line end.
  const full = readFileSync(FIXTURE);
  transcript = full.subarray(0, full.indexOf(10, 512 * 1024) + 1);
  writeFileSync(transcriptPath, transcript);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function startChild(args: string[]): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, [CHILD, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  if (child.stdout === null) throw new Error("child has no stdout");
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

/** The id in the next "s <id>" line, or a failure when none comes within `withinMs`. */
async function nextSnapshotId(lines: AsyncIterator<string>, withinMs: number): Promise<string> {
  const timeout = delay(withinMs, "timeout" as const, { ref: false });
  const result = await Promise.race([lines.next(), timeout]);
  if (result === "timeout") throw new Error(`no snapshot within ${withinMs} ms: a lock left by a killed writer?`);
  if (result.done === true) throw new Error("writer exited before its first snapshot");
  return result.value.split(" ")[1] ?? "";
}

const idsOf = (entries: readonly SnapshotEntry[]) => entries.map((entry) => entry.id);
const newestOf = (ids: readonly string[]) => [...ids].sort().at(-1);

/** Lists (repairing the index if a kill left it stale) and checks everything listed. */
async function checkStore(): Promise<SnapshotEntry[]> {
  const index = await readCatalog(snapshotsDir);
  if (index === null || !catalogMatchesFolder(index, await scanSnapshotFolder(snapshotsDir))) staleIndexes++;
  const listed = await listSnapshots(root);
  for (const entry of listed) {
    const read = await readSnapshot(root, entry.id, ChurnStateSchema);
    expect(read, `listed snapshot ${entry.id} is gone`).not.toBeNull();
    expect(isCompleteChurnState(read?.state ?? { seq: 1, writer: 0, items: [] })).toBe(true);
    expect(Buffer.from(read?.transcript ?? []).equals(transcript)).toBe(true);
    expect(read?.snapshot).toEqual(entry);
  }
  const names = readdirSync(snapshotsDir);
  const files = names.filter((name) => name.endsWith(".ctx")).map((name) => name.slice(0, -4));
  expect(files.sort(), "a snapshot file the list does not show").toEqual(idsOf(listed).sort());
  expect(names.filter((name) => name.includes(".damaged"))).toEqual([]);
  expect(JSON.parse(readFileSync(join(snapshotsDir, "index.json"), "utf8")).snapshots).toEqual(listed);
  return listed;
}

describe("snapshot store durability across processes", () => {
  it(`survives ${ROUNDS * WRITERS_PER_ROUND} SIGKILLs of concurrent snapshot writers`, async () => {
    const reported: string[] = [];
    staleIndexes = 0;
    let previous: SnapshotEntry[] = [];
    let kills = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const writers = Array.from({ length: WRITERS_PER_ROUND }, () => startChild(["churn", root, transcriptPath]));
      await Promise.all(
        writers.map(async ({ child, lines }) => {
          const exited = once(child, "exit");
          // The first snapshot proves this writer got past whatever lock the previous kills left behind.
          reported.push(await nextSnapshotId(lines, 15_000));
          // Not timing anything: a random pause so kills land in every phase (lock, write, verify, index, prune).
          await delay(Math.random() * 80);
          child.kill("SIGKILL");
          for (;;) {
            const line = await lines.next();
            if (line.done === true) break;
            reported.push(line.value.split(" ")[1] ?? "");
          }
          await exited;
          kills++;
        }),
      );
      const listed = await checkStore();
      // Retention keeps the newest: the newest snapshot any writer reported is still there.
      expect(idsOf(listed)).toContain(newestOf(reported));
      // An earlier snapshot only goes when enough newer ones replaced it (pinned or not: a pin may come later).
      const earlier = newestOf(idsOf(previous));
      if (earlier !== undefined && !idsOf(listed).includes(earlier)) {
        const newer = listed.filter((entry) => entry.id > earlier);
        expect(newer.length).toBeGreaterThanOrEqual(CHURN_RETENTION.maxSnapshots);
      }
      previous = listed;
    }
    expect(kills).toBe(ROUNDS * WRITERS_PER_ROUND);

    // Damage the index on purpose: it is rebuilt from the files.
    writeFileSync(join(snapshotsDir, "index.json"), '{"version":1,"snapshots":[');
    expect(idsOf(await checkStore())).toEqual(idsOf(previous));

    // What killed writers leave behind is only their temp files, and pruning clears those.
    const { removedTempFiles } = await pruneSnapshots(root, CHURN_RETENTION, new Date(), { tempMinAgeMs: 0 });
    const left = readdirSync(snapshotsDir).filter((name) => !/^\d{8}T\d{9}Z-[0-9a-f]{6}\.(ctx|pin)$/.test(name));
    expect(left).toEqual(["index.json"]);
    await checkStore();
    process.stderr.write(
      `snapshot durability: ${kills} kills, ${reported.length} snapshots reported, ` +
        `${previous.length} listed at the end, ${staleIndexes} stale indexes rebuilt, ` +
        `${removedTempFiles.length} temp files left by killed writers\n`,
    );
  }, 120_000);

  it.each([
    [1000, 16],
    [3, 3],
  ])(
    "keeps one consistent index when two processes create snapshots at once (maxSnapshots %i)",
    async (maxSnapshots, expected) => {
      const writers = [0, 1].map(() => startChild(["many", root, transcriptPath, "8", String(maxSnapshots)]));
      const reported: string[] = [];
      await Promise.all(
        writers.map(async ({ child, lines }) => {
          const exited = once(child, "exit");
          for (;;) {
            const line = await lines.next();
            if (line.done === true) break;
            reported.push(line.value.split(" ")[1] ?? "");
          }
          expect((await exited)[0]).toBe(0);
        }),
      );
      expect(reported).toHaveLength(16);
      const listed = await checkStore();
      expect(idsOf(listed)).toEqual([...reported].sort().reverse().slice(0, expected));
    },
    60_000,
  );
});
