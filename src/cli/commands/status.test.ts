// `ctx status` crash recovery, in-process against a temp project: a session that ended without
// session-end is named with the exact command that restores its newest good checkpoint.
import { spawnSync } from "node:child_process";
import { unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type CliProject, createCliProject } from "../../../tests/helpers/cli-project.ts";
import { recordSessionEnd, recordSessionStart } from "../../core/sessions/seen.ts";
import { StatusSchema } from "../../core/status/report.ts";
import { CheckpointReportSchema } from "../../store/context/operations.ts";
import { updateSessionsSeen } from "../../store/sessions/seen.ts";

const MINUTE_MS = 60_000;
let project: CliProject;

beforeEach(async () => {
  project = await createCliProject({ startedAt: new Date(Date.now() - 60 * MINUTE_MS) });
});

const checkpointNow = async () =>
  CheckpointReportSchema.parse(JSON.parse((await project.run(["checkpoint", "--json"])).stdout));
const transcriptQuietFor = (minutes: number) => {
  const at = new Date(Date.now() - minutes * MINUTE_MS);
  utimesSync(project.transcript, at, at);
  return at;
};
/** Records a (re)start of `sessionId` as the SessionStart hook does, with Claude Code's pid. */
const recordStartWithPid = async (sessionId: string, transcriptPath: string, pid: number) => {
  await updateSessionsSeen(project.root, (file) =>
    recordSessionStart(file, {
      sessionId,
      transcriptPath,
      cwd: project.root,
      at: new Date(),
      source: "resume",
      model: null,
      pid,
    }),
  );
};
/** The pid of a process that has exited. */
const deadPid = () => {
  const child = spawnSync(process.execPath, ["-e", ""]);
  if (child.pid === undefined) throw new Error("could not start a child process");
  return child.pid;
};
const statusJson = async () => StatusSchema.parse(JSON.parse((await project.run(["status", "--json"])).stdout));

describe("ctx status: crash recovery", () => {
  it("an unended session, quiet for more than 10 minutes, with a checkpoint since its start: says so with the command", async () => {
    const checkpoint = await checkpointNow();
    const quietSince = transcriptQuietFor(11);
    const { stdout } = await project.run(["status"]);
    expect(stdout).toContain(`session ${project.sessionId} ended without session-end`);
    expect(stdout).toContain(`ctx restore --checkpoint ${checkpoint.id}`);
    const status = await statusJson();
    expect(status.recovery).toEqual({
      sessionId: project.sessionId,
      checkpointId: checkpoint.id,
      lastActivity: quietSince.toISOString(),
    });
    // Every field scripts read is still there.
    expect(status).toMatchObject({ project: { root: project.root, initialized: true }, sessions: { count: 1 } });
    expect(status.warnings).toEqual([]);
    const restored = await project.run(["restore", "--checkpoint", checkpoint.id]);
    expect(restored.stdout).toContain("Write the retry helper");
  });

  it("nothing while the transcript changed in the last 10 minutes (the session may be running)", async () => {
    await checkpointNow();
    transcriptQuietFor(9);
    expect((await statusJson()).recovery).toBeNull();
    expect((await project.run(["status"])).stdout).not.toContain("ended without session-end");
  });

  it("nothing when session-end was recorded, or when there is no checkpoint", async () => {
    transcriptQuietFor(30);
    expect((await statusJson()).recovery).toBeNull();
    await checkpointNow();
    await updateSessionsSeen(project.root, (file) =>
      recordSessionEnd(file, {
        sessionId: project.sessionId,
        transcriptPath: project.transcript,
        cwd: project.root,
        at: new Date(),
        reason: "exit",
      }),
    );
    expect((await statusJson()).recovery).toBeNull();
  });

  it("a transcript that is gone counts as quiet; the checkpoint's time is the last activity", async () => {
    const checkpoint = await checkpointNow();
    unlinkSync(project.transcript);
    const recovery = (await statusJson()).recovery;
    expect(recovery?.checkpointId).toBe(checkpoint.id);
    expect(recovery?.lastActivity).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("a damaged newest checkpoint is skipped (with a warning) for the next one that verifies", async () => {
    const older = await checkpointNow();
    const newer = await checkpointNow();
    writeFileSync(newer.path, "damaged");
    transcriptQuietFor(20);
    const status = await statusJson();
    expect(status.recovery?.checkpointId).toBe(older.id);
    expect(status.warnings.join("\n")).toContain(`checkpoint ${newer.id} is damaged`);
  });

  it("a checkpoint of another session does not recover this one", async () => {
    await checkpointNow();
    const other = join(project.base, "other.jsonl");
    writeFileSync(other, "");
    await project.recordStart("sess-other", other, new Date(Date.now() - 30 * MINUTE_MS));
    utimesSync(other, new Date(Date.now() - 20 * MINUTE_MS), new Date(Date.now() - 20 * MINUTE_MS));
    expect((await statusJson()).recovery).toBeNull();
  });

  it("an idle but live session (its Claude Code process still runs) is not reported, however quiet", async () => {
    await recordStartWithPid(project.sessionId, project.transcript, process.pid);
    await checkpointNow();
    transcriptQuietFor(120);
    expect((await statusJson()).recovery).toBeNull();
    expect((await project.run(["status"])).stdout).not.toContain("ended without session-end");
  });

  it("a session whose process is gone is reported at once, without waiting for its transcript to go quiet", async () => {
    await recordStartWithPid(project.sessionId, project.transcript, deadPid());
    const checkpoint = await checkpointNow();
    const lastActivity = transcriptQuietFor(1);
    expect((await statusJson()).recovery).toEqual({
      sessionId: project.sessionId,
      checkpointId: checkpoint.id,
      lastActivity: lastActivity.toISOString(),
    });
  });

  it("a crashed session behind a newer live one is found, with the command for its own checkpoint", async () => {
    await recordStartWithPid(project.sessionId, project.transcript, deadPid());
    const checkpoint = await checkpointNow();
    transcriptQuietFor(5);
    const other = join(project.base, "other.jsonl");
    writeFileSync(other, "");
    await recordStartWithPid("sess-live", other, process.pid);
    const status = await statusJson();
    expect(status.recovery).toMatchObject({ sessionId: project.sessionId, checkpointId: checkpoint.id });
    expect(status.sessions.count).toBe(2);
    expect((await project.run(["status"])).stdout).toContain(`ctx restore --checkpoint ${checkpoint.id}`);
  });
});

describe("ctx status: the saved context and what .ctx/ holds (ctx_status and ctx://status report the same)", () => {
  it("says whose context is saved, how much it holds and when, and the storage with its checkpoints", async () => {
    const before = await statusJson();
    expect(before.saved).toBeNull();
    await project.run(["save", "--json"]);
    await checkpointNow();
    const status = await statusJson();
    expect(status.saved).toMatchObject({ sessionId: project.sessionId });
    expect(status.saved?.messages).toBeGreaterThan(0);
    expect(status.saved?.trackedFiles).toBeGreaterThan(0);
    expect(Date.parse(status.saved?.savedAt ?? "")).not.toBeNaN();
    expect(status.storage.checkpoints).toBe(1);
    expect(status.storage.bytes).toBeGreaterThan(1000);
    const { stdout } = await project.run(["status"]);
    expect(stdout).toMatch(new RegExp(`saved context: session ${project.sessionId}, \\d+ message\\(s\\)`));
    expect(stdout).toMatch(/storage: \.ctx\/ [\d.]+ (B|KiB|MiB); 1 checkpoint\(s\), 0 snapshot\(s\)/);
  });
});
