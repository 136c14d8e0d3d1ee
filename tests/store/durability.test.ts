// Whole processes against one state file. (a) Writers are SIGKILLed at random moments, 200+ times:
// after every kill the file is absent or a complete version, never older than one already seen, and
// the lock the dead writer held never stalls the next writer. (b) Two processes each add 1 to a
// counter 500 times under updateStateFile: no update is lost.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeOrphanedTempFiles } from "../../src/store/files/atomic-write.ts";
import { readStateFile, verifyStateFile } from "../../src/store/files/state-file.ts";
import { ChurnSchema, CounterSchema, isCompleteChurn } from "./writer-child.ts";

const CHILD = join(import.meta.dirname, "writer-child.ts");
const LANES = 2;
const KILLS_PER_LANE = 100;
/** "A few seconds": the longest any writer may wait for a lock a killed writer left behind. */
const MAX_LOCK_WAIT_MS = 3_000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-durability-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function startChild(args: string[]): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, [CHILD, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  if (child.stdout === null) throw new Error("child has no stdout");
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

/** The next "w <seq> <waitMs>" line, or a failure when none comes within `withinMs`. */
async function nextWrite(lines: AsyncIterator<string>, withinMs: number): Promise<{ seq: number; waitMs: number }> {
  const timeout = delay(withinMs, "timeout" as const, { ref: false });
  const result = await Promise.race([lines.next(), timeout]);
  if (result === "timeout") throw new Error(`no write within ${withinMs} ms: a lock left by a killed writer?`);
  if (result.done === true) throw new Error("writer exited before writing");
  const [, seq, waitMs] = result.value.split(" ");
  return { seq: Number(seq), waitMs: Number(waitMs) };
}

describe("durability across processes", () => {
  it(`survives ${LANES * KILLS_PER_LANE} SIGKILLs of writers at random moments`, async () => {
    const path = join(dir, ".ctx", "state.ctx");
    let newestSeen = 0;
    let longestWaitMs = 0;
    let kills = 0;

    const checkFile = async () => {
      const value = await readStateFile(path, ChurnSchema);
      if (value === null) {
        expect(newestSeen, "the file vanished after it existed").toBe(0);
        return;
      }
      expect(isCompleteChurn(value), `version ${value.seq} is a mix of versions`).toBe(true);
      expect(value.seq, "a write went backwards").toBeGreaterThanOrEqual(newestSeen);
      newestSeen = value.seq;
      expect(await verifyStateFile(path)).toMatchObject({ ok: true });
    };

    const lane = async () => {
      for (let i = 0; i < KILLS_PER_LANE; i++) {
        const { child, lines } = startChild(["churn", path]);
        const exited = once(child, "exit");
        // The first write proves this writer got past whatever lock the previous kill left behind.
        const first = await nextWrite(lines, 10_000);
        longestWaitMs = Math.max(longestWaitMs, first.waitMs);
        // Not timing anything: a random pause so kills land in every phase (lock, read, write, rename).
        await delay(Math.random() * 25);
        child.kill("SIGKILL");
        // Lines already written before the kill still count towards the longest lock wait.
        for (;;) {
          const line = await lines.next();
          if (line.done === true) break;
          longestWaitMs = Math.max(longestWaitMs, Number(line.value.split(" ")[2]));
        }
        await exited;
        kills++;
        await checkFile();
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));

    expect(kills).toBe(LANES * KILLS_PER_LANE);
    expect(newestSeen).toBeGreaterThanOrEqual(kills);
    expect(longestWaitMs).toBeLessThan(MAX_LOCK_WAIT_MS);

    // A last writer that ends normally leaves no lock behind; only temp files of killed writers may remain.
    const last = startChild(["once", path]);
    expect(await nextWrite(last.lines, 10_000)).toMatchObject({ seq: newestSeen + 1 });
    expect((await once(last.child, "exit"))[0]).toBe(0);
    const leftovers = readdirSync(join(dir, ".ctx")).filter((name) => name !== "state.ctx");
    expect(leftovers.filter((name) => !/^\.state\.ctx\.\d+\.[0-9a-f]+\.tmp$/.test(name))).toEqual([]);
    expect(leftovers.some((name) => name.includes(`.${last.child.pid}.`))).toBe(false);
    expect((await removeOrphanedTempFiles(join(dir, ".ctx"), 0)).sort()).toEqual(leftovers.sort());
    expect(readdirSync(join(dir, ".ctx"))).toEqual(["state.ctx"]);
    await checkFile();
    process.stderr.write(
      `durability: ${kills} kills, newest version ${newestSeen}, longest lock wait ${longestWaitMs.toFixed(1)} ms, ` +
        `${leftovers.length} temp files left by killed writers\n`,
    );
  }, 120_000);

  it("loses no increment when two processes each add 1 to a counter 500 times", async () => {
    const path = join(dir, ".ctx", "counter.ctx");
    const children = [startChild(["count", path, "500"]), startChild(["count", path, "500"])];
    const codes = await Promise.all(children.map(({ child }) => once(child, "exit")));
    expect(codes.map(([code]) => code)).toEqual([0, 0]);
    expect(await readStateFile(path, CounterSchema)).toEqual({ count: 1000 });
    expect(readdirSync(join(dir, ".ctx"))).toEqual(["counter.ctx"]);
  }, 60_000);
});
