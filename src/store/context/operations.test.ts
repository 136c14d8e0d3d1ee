import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { userPrompt } from "../../../tests/helpers/transcript-lines.ts";
import { defaultConfig } from "../../config/defaults.ts";
import { ContextStateSchema } from "../../core/context/extract.ts";
import { redactText } from "../../core/redact/redact.ts";
import { recordSessionStart } from "../../core/sessions/seen.ts";
import { updateSessionsSeen } from "../sessions/seen.ts";
import { readSnapshot } from "../snapshots/snapshots.ts";
import { saveContext, snapshotContext, startSnapshotTranscript } from "./operations.ts";

describe("saveContext", () => {
  it("rejects an invalid save name before writing anything: the current state is untouched", async () => {
    const project = mkdtempSync(join(tmpdir(), "ctx-ops-"));
    mkdirSync(join(project, ".git"));
    const transcript = join(project, "t.jsonl");
    writeFileSync(transcript, userPrompt({ sessionId: "s1", cwd: project }, "Hello there."));
    await updateSessionsSeen(project, (current) =>
      recordSessionStart(current, {
        sessionId: "s1",
        transcriptPath: transcript,
        cwd: project,
        source: "startup",
        model: null,
        at: new Date(),
      }),
    );
    const deps = { projectRoot: project, config: defaultConfig(), now: () => new Date() };
    const saved = await saveContext(deps);
    const before = statSync(saved.path).mtimeMs;
    const error = await rejectedCtxError(saveContext(deps, { name: "bad name!" }));
    expect(error.code).toBe("USAGE");
    expect(statSync(saved.path).mtimeMs).toBe(before);
  });
});

describe("startSnapshotTranscript", () => {
  it("gives the snapshot exactly the transcript snapshotContext reads and redacts itself, first and grown", async () => {
    const project = mkdtempSync(join(tmpdir(), "ctx-ops-"));
    mkdirSync(join(project, ".git"));
    const transcript = join(project, "t.jsonl");
    const secret = ["gh", "p_", "Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A"].join("");
    const lines = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        userPrompt(
          { sessionId: "s1", cwd: project },
          `Prompt ${from + i}: export GH_TOKEN=${secret} ${"x".repeat(2000)}`,
        ),
      ).join("\n");
    writeFileSync(transcript, `${lines(0, 600)}\n`);
    const deps = { projectRoot: project, config: defaultConfig(), now: () => new Date() };
    const session = { sessionId: "s1", transcriptPath: transcript };
    const state = (await saveContext(deps, session)).state;
    const take = async (prepared: boolean) => {
      const job = prepared ? startSnapshotTranscript(deps, session, { minThreadedBytes: 0 }) : undefined;
      const { snapshot } = await snapshotContext(deps, {
        ...session,
        trigger: "manual",
        state,
        ...(job === undefined ? {} : { prepared: job }),
      });
      const read = await readSnapshot(project, snapshot.id, ContextStateSchema);
      return Buffer.from(read?.transcript ?? []).toString("utf8");
    };
    // The whole file redacted at once: one block, so what either path must give.
    const redactedFile = () => redactText(readFileSync(transcript, "utf8")).text;
    const firstPrepared = await take(true);
    expect(firstPrepared).toBe(redactedFile());
    expect(firstPrepared).toContain("[REDACTED:github-token]");
    expect(firstPrepared).not.toContain(secret);
    // Grown: only the added lines are redacted (in the worker), after the previous snapshot's bytes.
    writeFileSync(transcript, `${lines(0, 600)}\n${lines(600, 300)}\n`);
    const grownPrepared = await take(true);
    expect(grownPrepared).toBe(redactedFile());
    expect(grownPrepared).toContain("Prompt 899");
    // And snapshotContext reading the transcript itself gives the same.
    writeFileSync(transcript, `${lines(0, 600)}\n${lines(600, 400)}\n`);
    expect(await take(false)).toBe(redactedFile());
  });

  it("fails the snapshot, not the caller, when the transcript is gone, and can be cancelled", async () => {
    const project = mkdtempSync(join(tmpdir(), "ctx-ops-"));
    mkdirSync(join(project, ".git"));
    const deps = { projectRoot: project, config: defaultConfig(), now: () => new Date() };
    const job = startSnapshotTranscript(deps, { sessionId: "s1", transcriptPath: join(project, "missing.jsonl") });
    job.cancel();
    const error = await rejectedCtxError(job.transcript);
    expect(error.code).toBe("NOT_FOUND");
  });
});
