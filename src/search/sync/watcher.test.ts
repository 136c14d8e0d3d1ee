import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, silentLogger } from "../../log.ts";
import { BACKGROUND_PRIORITY, type IndexWatcher, type RunReport, startIndexWatcher } from "./watcher.ts";

let watcher: IndexWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
});

/** A stand-in for `ctx index`: records its start in a log, reports its own priority, sleeps `ms`, then exits `code`. */
function fakeSync(dir: string, ms: number, code = 0): string[] {
  const script = join(dir, `fake-sync-${ms}-${code}.mjs`);
  writeFileSync(
    script,
    `import { appendFileSync } from "node:fs"; import { getPriority } from "node:os";
     appendFileSync(${JSON.stringify(join(dir, "runs.log"))}, "run\\n");
     process.stdout.write(JSON.stringify({ priority: getPriority() }));
     process.stderr.write("sync says hi");
     setTimeout(() => process.exit(${code}), ${ms});`,
  );
  return [process.execPath, script];
}

function setup() {
  const claudeDir = mkdtempSync(join(tmpdir(), "ctx-watch-"));
  const project = join(claudeDir, "projects", "-home-me-app");
  mkdirSync(join(project, "0000-session", "subagents"), { recursive: true });
  return { claudeDir, project };
}

function collectRuns() {
  const runs: RunReport[][] = [];
  let wake: (() => void) | undefined;
  return {
    runs,
    onRunEnd: (reports: RunReport[]) => {
      runs.push(reports);
      wake?.();
    },
    async waitFor(count: number) {
      while (runs.length < count) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

const runCount = (dir: string) => {
  try {
    return readFileSync(join(dir, "runs.log"), "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
};

describe("startIndexWatcher", () => {
  it("runs the sync once, at low priority, after a burst of transcript writes goes quiet", async () => {
    const { claudeDir, project } = setup();
    const collected = collectRuns();
    watcher = startIndexWatcher({
      claudeDir,
      quietMs: 300,
      syncOnStart: false,
      commands: [fakeSync(claudeDir, 10), fakeSync(claudeDir, 10)],
      logger: silentLogger,
      onRunEnd: collected.onRunEnd,
    });
    await watcher.ready;
    writeFileSync(join(project, "a.jsonl"), "{}\n");
    writeFileSync(join(project, "notes.txt"), "ignored\n");
    writeFileSync(join(project, "0000-session", "subagents", "agent-1.jsonl"), "{}\n");
    writeFileSync(join(project, "a.jsonl"), "{}\n{}\n");
    await collected.waitFor(1);
    const [first] = collected.runs;
    expect(first?.map((r) => r.exitCode)).toEqual([0, 0]);
    expect(first?.map((r) => JSON.parse(r.stdout).priority)).toEqual([BACKGROUND_PRIORITY, BACKGROUND_PRIORITY]);
    expect(first?.[0]?.stderrTail).toBe("sync says hi");
    // Both commands ran once for the whole burst.
    expect(runCount(claudeDir)).toBe(2);
  });

  it("ignores files that are not transcripts", async () => {
    const { claudeDir, project } = setup();
    const collected = collectRuns();
    watcher = startIndexWatcher({
      claudeDir,
      quietMs: 100,
      syncOnStart: false,
      commands: [fakeSync(claudeDir, 10)],
      logger: silentLogger,
      onRunEnd: collected.onRunEnd,
    });
    await watcher.ready;
    writeFileSync(join(project, "notes.txt"), "not a transcript\n");
    writeFileSync(join(project, "0000-session", "x.json"), "{}");
    // A transcript write afterwards proves the watcher is alive; only it may have caused a run.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(collected.runs).toHaveLength(0);
    writeFileSync(join(project, "0000-session", "subagents", "agent-2.jsonl"), "{}\n");
    await collected.waitFor(1);
    expect(collected.runs).toHaveLength(1);
  });

  it("coalesces writes during a run into exactly one more run, and stops a failing run early", async () => {
    const { claudeDir, project } = setup();
    const collected = collectRuns();
    const spawned: Array<number | undefined> = [];
    watcher = startIndexWatcher({
      claudeDir,
      quietMs: 100,
      syncOnStart: true,
      commands: [fakeSync(claudeDir, 600, 3), fakeSync(claudeDir, 10)],
      logger: silentLogger,
      onSpawn: (pid) => {
        spawned.push(pid);
        // While the first run is busy, three separate bursts arrive.
        if (spawned.length === 1) {
          for (const [i, delay] of [0, 150, 300].entries()) {
            setTimeout(() => writeFileSync(join(project, `b${i}.jsonl`), "{}\n"), delay);
          }
        }
      },
      onRunEnd: collected.onRunEnd,
    });
    await collected.waitFor(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(collected.runs).toHaveLength(2);
    // The first command fails (exit 3): the second command of the run is skipped.
    expect(collected.runs.map((run) => run.map((r) => r.exitCode))).toEqual([[3], [3]]);
    expect(runCount(claudeDir)).toBe(2);
  });

  it("close() kills a running child and leaves no process behind", async () => {
    const { claudeDir } = setup();
    let pid: number | undefined;
    let spawnedResolve: () => void = () => {};
    const spawnedPromise = new Promise<void>((resolve) => (spawnedResolve = resolve));
    watcher = startIndexWatcher({
      claudeDir,
      quietMs: 10,
      syncOnStart: true,
      commands: [fakeSync(claudeDir, 60_000)],
      logger: silentLogger,
      onSpawn: (childPid) => {
        pid = childPid;
        spawnedResolve();
      },
    });
    await spawnedPromise;
    expect(pid).toBeGreaterThan(0);
    expect(getPriority(pid)).toBe(BACKGROUND_PRIORITY);
    await watcher.close();
    watcher = undefined;
    expect(() => process.kill(pid as number, 0)).toThrow(/ESRCH/);
  });

  it("never runs two syncs at once across processes sharing the lock; the blocked one runs later", async () => {
    const { claudeDir, project } = setup();
    const lockPath = join(claudeDir, "background-sync");
    const timeline = join(claudeDir, "timeline.log");
    const script = join(claudeDir, "slow-sync.mjs");
    writeFileSync(
      script,
      `import { appendFileSync } from "node:fs";
       appendFileSync(${JSON.stringify(timeline)}, "start\\n");
       setTimeout(() => { appendFileSync(${JSON.stringify(timeline)}, "end\\n"); }, 500);`,
    );
    const first = collectRuns();
    const second = collectRuns();
    const common = {
      claudeDir,
      quietMs: 150,
      syncOnStart: false,
      commands: [[process.execPath, script]],
      logger: silentLogger,
      lockPath,
    };
    watcher = startIndexWatcher({ ...common, onRunEnd: first.onRunEnd });
    const other = startIndexWatcher({ ...common, onRunEnd: second.onRunEnd });
    try {
      await Promise.all([watcher.ready, other.ready]);
      writeFileSync(join(project, "shared.jsonl"), "{}\n");
      await Promise.all([first.waitFor(1), second.waitFor(1)]);
      const events = readFileSync(timeline, "utf8").trim().split("\n");
      expect(events).toEqual(["start", "end", "start", "end"]);
    } finally {
      await other.close();
    }
  });

  it("runs after a transcript lands in a project folder created after start", async () => {
    const { claudeDir } = setup();
    const collected = collectRuns();
    watcher = startIndexWatcher({
      claudeDir,
      quietMs: 100,
      syncOnStart: false,
      commands: [fakeSync(claudeDir, 10)],
      logger: silentLogger,
      onRunEnd: collected.onRunEnd,
    });
    await watcher.ready;
    expect(watcher.folders()).toBe(4);
    const fresh = join(claudeDir, "projects", "-home-me-new");
    mkdirSync(join(fresh, "1111-session", "subagents"), { recursive: true });
    writeFileSync(join(fresh, "1111-session", "subagents", "agent-1.jsonl"), "{}\n");
    await collected.waitFor(1);
    expect(watcher.folders()).toBe(7);
  });

  it("says once that a folder cannot be watched, and then syncs on a timer instead of failing", async () => {
    const { claudeDir } = setup();
    const collected = collectRuns();
    const warnings: string[] = [];
    watcher = startIndexWatcher({
      claudeDir,
      quietMs: 10,
      syncOnStart: false,
      commands: [fakeSync(claudeDir, 10)],
      logger: createLogger({ level: "warn", write: (line) => warnings.push(line) }),
      onRunEnd: collected.onRunEnd,
      fallbackSyncMs: 100,
      watchFolder: () => {
        throw Object.assign(new Error("ENOSPC: System limit for number of file watchers reached"), { code: "ENOSPC" });
      },
    });
    await watcher.ready;
    expect(watcher.folders()).toBe(0);
    // No event can arrive: the runs come from the timer.
    await collected.waitFor(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("ENOSPC");
    expect(warnings[0]).toContain("synced every 0.1 s");
  });
});
