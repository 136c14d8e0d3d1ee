import { spawn } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ForkLogRecord } from "../../core/library/fork-log-schema.ts";
import { appendForkLog, forkLogPath } from "./fork-log.ts";
import { readForkLog } from "./fork-log-read.ts";
import { readPaidOffSources } from "./fork-paid-off.ts";
import { writePaidOffSources } from "./fork-paid-off-write.ts";

let root: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-fork-log-"));
  env = { CTX_HOME: join(root, ".ctx"), HOME: root };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (i: number): ForkLogRecord => ({
  kind: "run",
  at: 1_000 + i,
  via: "picker",
  sessionId: `s${i}`,
  point: null,
});

describe("the fork log", () => {
  it("keeps every record of writers appending at once, 0600 in a 0700 folder", async () => {
    await Promise.all(Array.from({ length: 300 }, (_, i) => appendForkLog(env, run(i))));
    const read = await readForkLog(env);
    expect(read.skipped).toBe(0);
    expect(read.records.map((record) => (record.kind === "run" ? record.sessionId : "")).sort()).toEqual(
      Array.from({ length: 300 }, (_, i) => `s${i}`).sort(),
    );
    expect(statSync(forkLogPath(env)).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, ".ctx", "library")).mode & 0o777).toBe(0o700);
  });

  it("loses nothing to writers in other processes", async () => {
    // Two processes append 200 records each at once (what two searches at once do), through this module.
    const script = `
      const { appendForkLog } = await import(${JSON.stringify(new URL("./fork-log.ts", import.meta.url).href)});
      const who = process.argv[1];
      for (let i = 0; i < 200; i++) await appendForkLog(process.env, { kind: "run", at: i, via: "fork", sessionId: who + i, point: null });
    `;
    const child = (who: string) =>
      new Promise<number | null>((resolve) => {
        const proc = spawn(process.execPath, ["--input-type=module", "-e", script, who], {
          env: { ...process.env, ...env },
          stdio: "inherit",
        });
        proc.on("close", resolve);
      });
    expect(await Promise.all([child("a"), child("b")])).toEqual([0, 0]);
    const read = await readForkLog(env);
    expect(read.records).toHaveLength(400);
    expect(read.skipped).toBe(0);
  });

  it("rotates past its size: at most two generations, the newest records kept", async () => {
    for (let i = 0; i < 200; i++) await appendForkLog(env, run(i), 2_000);
    const files = readdirSync(join(root, ".ctx", "library")).filter((name) => name.endsWith(".jsonl"));
    expect(files.sort()).toEqual(["fork-log.1.jsonl", "fork-log.jsonl"]);
    for (const name of files) expect(statSync(join(root, ".ctx", "library", name)).size).toBeLessThan(2_200);
    const read = await readForkLog(env);
    expect(read.records.length).toBeLessThan(200);
    expect(read.records.at(-1)).toEqual(run(199));
  });

  it("skips and counts a corrupt, truncated, foreign or huge line and reads the rest", async () => {
    await appendForkLog(env, run(1));
    appendFileSync(
      forkLogPath(env),
      `{"kind":"run","at":2,"via":"picker"\nnot json\n{"kind":"offer"}\n${"x".repeat(70_000)}\n`,
    );
    await appendForkLog(env, run(3));
    const read = await readForkLog(env);
    expect(read.records).toEqual([run(1), run(3)]);
    expect(read.skipped).toBe(4);
  });

  it("is empty when there is no log, and refuses a log that is a link", async () => {
    expect(await readForkLog(env)).toEqual({ records: [], skipped: 0 });
    mkdirSync(join(root, ".ctx", "library"), { recursive: true, mode: 0o700 });
    writeFileSync(join(root, "elsewhere"), "");
    symlinkSync(join(root, "elsewhere"), forkLogPath(env));
    await expect(appendForkLog(env, run(1))).rejects.toThrow(/is a symbolic link/);
    await expect(readForkLog(env)).rejects.toThrow(/is a symbolic link/);
  });
});

describe("the paid-off sources", () => {
  it("round-trips, and a missing or damaged file is no lift", async () => {
    expect(readPaidOffSources(env).size).toBe(0);
    await writePaidOffSources(
      env,
      new Map([
        ["a", 2],
        ["b", 1],
      ]),
    );
    expect([...readPaidOffSources(env)]).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
    writeFileSync(join(root, ".ctx", "library", "fork-paid-off.json"), '{"v":1,"sources":{"a":"lots","b":-1,"c":1}');
    expect(readPaidOffSources(env).size).toBe(0);
    writeFileSync(join(root, ".ctx", "library", "fork-paid-off.json"), '{"v":1,"sources":{"a":"lots","b":-1,"c":1}}');
    expect([...readPaidOffSources(env)]).toEqual([["c", 1]]);
  });
});
