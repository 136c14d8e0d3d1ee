import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOW_PRIORITY, startDetachedCtx } from "./detached-child.ts";

// A stand-in for dist/ctx.js: records how it was started in started.json, waits until `release` exists (so the
// test can look at it alive), then writes `done`. It never outlives its folder or a minute.
const STAND_IN = `
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const folder = process.env.STAND_IN_FOLDER;
let sessionId = null;
try { sessionId = Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")[3]); } catch {}
writeFileSync(join(folder, "started.json"), JSON.stringify({
  args: process.argv.slice(2), cwd: process.cwd(), pid: process.pid, sessionId, marker: process.env.STAND_IN_MARKER ?? null,
}));
const startedAt = Date.now();
while (!existsSync(join(folder, "release"))) {
  if (!existsSync(folder) || Date.now() - startedAt > 60_000) process.exit(1);
  await new Promise((resolve) => setTimeout(resolve, 10));
}
writeFileSync(join(folder, "done"), "");
`;

let folder: string;
let cliPath: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "ctx-detached-"));
  cliPath = join(folder, "stand-in.mjs");
  writeFileSync(cliPath, STAND_IN);
});
afterEach(() => {
  writeFileSync(join(folder, "release"), ""); // never leave a stand-in waiting
  rmSync(folder, { recursive: true, force: true });
});

const envFor = (extra: NodeJS.ProcessEnv = {}) => ({ ...process.env, STAND_IN_FOLDER: folder, ...extra });

describe("startDetachedCtx", () => {
  it("runs `<execPath> <cliPath> <args…>` in the given folder with the given environment, unref'd", async () => {
    const before = countProcessHandles();
    const pid = startDetachedCtx(["index", "--quiet"], {
      cliPath,
      cwd: folder,
      env: envFor({ STAND_IN_MARKER: "given" }),
    });
    expect(pid).toBeTypeOf("number");
    // Unref'd: the child does not keep this process's event loop alive.
    expect(countProcessHandles()).toBe(before);
    const started = await waitForStart();
    expect(started).toMatchObject({ args: ["index", "--quiet"], cwd: folder, pid, marker: "given" });
    // Its own session (Linux tells through /proc): a signal to this process's group does not reach it.
    if (process.platform === "linux") expect(started.sessionId).toBe(pid);
    await finish();
  });

  it.skipIf(process.platform === "win32" || getPriority() > LOW_PRIORITY)(
    "lowers the child's priority when asked, and leaves it as this process's when not",
    async () => {
      const lowered = startDetachedCtx([], { cliPath, env: envFor(), priority: LOW_PRIORITY });
      expect(getPriority(lowered)).toBe(LOW_PRIORITY);
      await waitForStart();
      await finish();
      rmSync(join(folder, "started.json"));
      rmSync(join(folder, "release"));
      rmSync(join(folder, "done"));
      const kept = startDetachedCtx([], { cliPath, env: envFor() });
      expect(getPriority(kept)).toBe(getPriority());
      await waitForStart();
      await finish();
    },
  );

  it("does not throw when the binary cannot be started", async () => {
    const pid = startDetachedCtx([], { cliPath, execPath: join(folder, "no-such-node"), env: envFor() });
    expect(pid).toBeUndefined();
    await delay(50); // the failure arrives as an event; an unhandled one would fail this test
  });
});

function countProcessHandles(): number {
  return process.getActiveResourcesInfo().filter((name) => name === "ProcessWrap").length;
}

async function waitForStart(): Promise<Record<string, unknown>> {
  const path = join(folder, "started.json");
  await waitFor(() => existsSync(path) && readFileSync(path, "utf8").endsWith("}"), "the stand-in never started");
  return JSON.parse(readFileSync(path, "utf8"));
}

async function finish(): Promise<void> {
  writeFileSync(join(folder, "release"), "");
  await waitFor(() => existsSync(join(folder, "done")), "the stand-in never finished");
}

async function waitFor(condition: () => boolean, message: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await delay(20)) {
    if (condition()) return;
  }
  throw new Error(message);
}
