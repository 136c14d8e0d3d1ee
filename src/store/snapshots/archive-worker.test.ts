import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { recompressSnapshot, spawnDetachedRecompress } from "./archive-worker.ts";
import { createSnapshot, listSnapshots, pinSnapshot, readSnapshot } from "./snapshots.ts";

const StateSchema = z.object({ notes: z.array(z.string()) });
const STAND_IN = join(import.meta.dirname, "../../../tests/store/recompress-stand-in.ts");
const ARCHIVE_WORKER = join(import.meta.dirname, "archive-worker.ts");

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ctx-archive-"));
});
afterEach(() => {
  writeFileSync(join(root, "release"), ""); // never leave a stand-in waiting
  rmSync(root, { recursive: true, force: true });
});

async function makeSnapshot() {
  const transcriptPath = join(root, "t.jsonl");
  const line = (i: number) => `${JSON.stringify({ type: "user", i, text: `message ${i % 97} about the store` })}\n`;
  writeFileSync(transcriptPath, Array.from({ length: 3000 }, (_, i) => line(i)).join(""));
  const state = { notes: Array.from({ length: 200 }, (_, i) => `note ${i} ${"x".repeat(i % 13)}`) };
  const { snapshot } = await createSnapshot(
    root,
    { sessionId: "s", trigger: "auto", state, stateSchema: StateSchema, transcriptPath },
    { codec: "lz4" },
  );
  return { snapshot, state, transcript: readFileSync(transcriptPath) };
}

describe("recompressSnapshot", () => {
  it("rewrites an LZ4 snapshot as zstd with the same content, and updates the index", async () => {
    const { snapshot, state, transcript } = await makeSnapshot();
    await pinSnapshot(root, snapshot.id);
    const result = await recompressSnapshot(root, snapshot.id);
    expect(result).toMatchObject({ recompressed: true, beforeBytes: snapshot.fileBytes });
    expect(result?.afterBytes).toBeLessThan(snapshot.fileBytes);
    expect(result?.snapshot).toEqual({ ...snapshot, codec: "zstd", fileBytes: result?.afterBytes, pinned: true });
    const read = await readSnapshot(root, snapshot.id, StateSchema);
    expect(read?.state).toEqual(state);
    expect(Buffer.from(read?.transcript ?? []).equals(transcript)).toBe(true);
    expect(await listSnapshots(root)).toEqual([result?.snapshot]);
  });

  it("leaves a zstd snapshot alone, and returns null for one that is gone", async () => {
    const { snapshot } = await makeSnapshot();
    await recompressSnapshot(root, snapshot.id);
    expect(await recompressSnapshot(root, snapshot.id)).toMatchObject({ recompressed: false });
    expect(await recompressSnapshot(root, "20261122T000000000Z-000000")).toBeNull();
    expect(await recompressSnapshot(root, "not-an-id")).toBeNull();
  });
});

// /proc tells whether a process is alive, a zombie, or gone, and its session.
describe.skipIf(process.platform !== "linux")("spawnDetachedRecompress", () => {
  it("starts the CLI detached and unref'd, and the child is reaped once it ends", async () => {
    const before = countProcessHandles();
    const { pid } = spawnDetachedRecompress(root, "20261122T000000000Z-abcdef", {
      execPath: process.execPath,
      cliPath: STAND_IN,
    });
    expect(pid).toBeTypeOf("number");
    // Unref'd: the child does not keep this process's event loop alive.
    expect(countProcessHandles()).toBe(before);
    const started = await waitForStart();
    expect(started).toEqual({
      args: ["snapshot", "recompress", "20261122T000000000Z-abcdef", "--project", root],
      cwd: root,
      pid,
      sessionId: pid, // its own session: a signal to the hook's process group does not reach it
      hooksDisabled: "1",
    });
    expect(processState(pid ?? 0)).toMatch(/^[RSD]$/);
    writeFileSync(join(root, "release"), "");
    await waitFor(() => existsSync(join(root, "done")), 10_000, "the stand-in never finished");
    await waitFor(() => processState(pid ?? 0) === null, 10_000, "the child was not reaped (zombie)");
  });

  it("outlives a parent that returns at once, without holding the parent's stdout open", async () => {
    const script =
      `import { spawnDetachedRecompress } from ${JSON.stringify(ARCHIVE_WORKER)};` +
      `const { pid } = spawnDetachedRecompress(${JSON.stringify(root)}, "20261122T000000000Z-abcdef",` +
      ` { execPath: process.execPath, cliPath: ${JSON.stringify(STAND_IN)} });` +
      "process.stdout.write(String(pid));";
    const parent = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    parent.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    // "close" waits for the parent's stdout pipe to close: a child that inherited it would hold it open.
    const [code] = await Promise.race([
      once(parent, "close"),
      delay(15_000).then(() => {
        throw new Error("the parent did not finish: is the child holding its stdout?");
      }),
    ]);
    expect(code).toBe(0);
    const childPid = Number(out);
    const started = await waitForStart();
    expect(started.pid).toBe(childPid);
    expect(processState(childPid)).toMatch(/^[RSD]$/); // alive after its parent is gone
    expect(existsSync(join(root, "done"))).toBe(false);
    writeFileSync(join(root, "release"), "");
    await waitFor(() => existsSync(join(root, "done")), 10_000, "the stand-in never finished");
    // Orphans are reaped by init (or a subreaper), which may take a moment in containers.
    await waitFor(() => processState(childPid) === null, 20_000, "the orphaned child was never reaped");
  }, 60_000);

  it("does not throw when the binary cannot be started", async () => {
    const { pid } = spawnDetachedRecompress(root, "x", { execPath: join(root, "no-such-node"), cliPath: STAND_IN });
    expect(pid).toBeUndefined();
    await delay(50); // the failure arrives as an event; an unhandled one would fail this test
  });
});

function countProcessHandles(): number {
  return process.getActiveResourcesInfo().filter((name) => name === "ProcessWrap").length;
}

async function waitForStart(): Promise<Record<string, unknown>> {
  const path = join(root, "started.json");
  await waitFor(() => existsSync(path) && readFileSync(path, "utf8").endsWith("}"), 10_000, "no start");
  return JSON.parse(readFileSync(path, "utf8"));
}

/** The process's state letter (R, S, Z...), or null when it no longer exists. */
function processState(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[0] ?? null;
  } catch {
    return null;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number, failure: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(failure);
    await delay(20);
  }
}
