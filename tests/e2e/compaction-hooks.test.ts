// The compaction cycle as Claude Code drives it, with real hook processes: PreCompact saves and snapshots,
// SessionStart `compact` re-injects, UserPromptSubmit falls back when the injection did not arrive.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ContextStateSchema } from "../../src/core/context/extract.ts";
import { readProjectState } from "../../src/store/context/project-state.ts";
import { verifyStateFile } from "../../src/store/files/state-file.ts";
import { listSnapshots, readSnapshot } from "../../src/store/snapshots/snapshots.ts";
import { FIXTURE } from "../helpers/claude-projects.ts";
import { assistantToolUse, type LineContext, toolResult, userPrompt } from "../helpers/transcript-lines.ts";
import { CTX_BIN, runCtx } from "./ctx-process.ts";

let project: string;
let transcript: string;
let env: NodeJS.ProcessEnv;
const session = "7c0e2a4b-0000-4000-8000-00000000c0de";
const fakeToken = () => ["sk", "-ant-", "api03-", "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"].join("");

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "ctx-compaction-"));
  project = join(base, "repo");
  mkdirSync(join(project, ".git"), { recursive: true });
  transcript = join(base, `${session}.jsonl`);
  env = { CTX_HOME: join(base, "ctx-home"), HOME: join(base, "home"), CLAUDE_PROJECT_DIR: "" };
  const ctx: LineContext = { sessionId: session, cwd: project };
  writeFileSync(
    transcript,
    `${[
      userPrompt(ctx, `Add retries to the client. We decided to use exponential backoff. Key: ${fakeToken()}`),
      assistantToolUse(ctx, "toolu_todo", "TodoWrite", {
        todos: [
          { content: "Write the retry helper", status: "in_progress", activeForm: "Writing the retry helper" },
          { content: "Add backoff tests", status: "pending", activeForm: "Adding backoff tests" },
        ],
      }),
      toolResult(ctx, "toolu_todo", "Todos have been modified successfully."),
    ].join("\n")}\n`,
  );
});

const hookInput = (event: string, extra: Record<string, unknown>) =>
  JSON.stringify({ session_id: session, transcript_path: transcript, cwd: project, hook_event_name: event, ...extra });

const hook = (event: string, extra: Record<string, unknown>, more: NodeJS.ProcessEnv = {}) =>
  runCtx(["hook", event], { cwd: project, env: { ...env, ...more }, stdin: hookInput(event, extra) });

describe("compaction cycle (hook processes)", () => {
  it("pre-compact saves a verified, redacted snapshot; session-start compact re-injects it; the fallback settles", async () => {
    const pre = await hook("pre-compact", { trigger: "auto", custom_instructions: "" });
    expect(pre, pre.stderr).toMatchObject({ code: 0, stdout: "" });

    const snapshots = await listSnapshots(project);
    expect(snapshots).toHaveLength(1);
    const snapshot = await readSnapshot(project, snapshots[0]?.id ?? "", ContextStateSchema);
    expect(snapshot?.snapshot).toMatchObject({ sessionId: session, trigger: "auto" });
    const storedTranscript = Buffer.from(snapshot?.transcript ?? new Uint8Array()).toString("utf8");
    expect(storedTranscript).toContain("Write the retry helper");
    expect(storedTranscript).not.toContain(fakeToken());
    expect(storedTranscript).toContain("[REDACTED:anthropic-api-key]");
    const state = await readProjectState(project);
    expect(state?.todos?.items.map((t) => t.content)).toEqual(["Write the retry helper", "Add backoff tests"]);
    expect(JSON.stringify(state)).not.toContain(fakeToken());

    const start = await hook("session-start", { source: "compact" });
    expect(start.code).toBe(0);
    const reply = JSON.parse(start.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(reply.hookSpecificOutput.hookEventName).toBe("SessionStart");
    const context = reply.hookSpecificOutput.additionalContext;
    expect(context.length).toBeLessThan(10_000);
    expect(context).toContain("[~] Write the retry helper");
    expect(context).toContain(`ctx-restore:${snapshots[0]?.id}`);
    expect(context).not.toContain(fakeToken());

    // Claude Code dropped the injection (its token is not in the transcript): the next prompt injects it, once.
    const prompt = await hook("user-prompt-submit", { prompt: "go on" });
    const fallback = JSON.parse(prompt.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(fallback.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
    expect(fallback.hookSpecificOutput.additionalContext).toContain("Write the retry helper");
    const again = await hook("user-prompt-submit", { prompt: "and more" });
    expect(again).toMatchObject({ code: 0, stdout: "" });
  });

  it("a sessions file that cannot be written costs session-start compact nothing but a line: the context is re-injected", async () => {
    expect((await hook("pre-compact", { trigger: "auto", custom_instructions: "" })).code).toBe(0);
    // A folder where the sessions file goes: recording the session fails; the injection is a separate file.
    rmSync(join(project, ".ctx", "sessions.ctx"), { force: true });
    mkdirSync(join(project, ".ctx", "sessions.ctx"));
    const start = await hook("session-start", { source: "compact" });
    expect(start.code).toBe(0);
    expect(start.stderr).toMatch(/the session was not recorded/);
    const reply = JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(reply.hookSpecificOutput.additionalContext).toContain("[~] Write the retry helper");
  });

  it("a sessions file that cannot be written does not stop session-end from saving the context", async () => {
    mkdirSync(join(project, ".ctx"), { recursive: true, mode: 0o700 });
    mkdirSync(join(project, ".ctx", "sessions.ctx"));
    const end = await hook("session-end", { reason: "other" });
    expect(end.code).toBe(0);
    expect(end.stderr).toMatch(/the session's end was not recorded/);
    const state = await readProjectState(project);
    expect(state?.todos?.items.map((t) => t.content)).toEqual(["Write the retry helper", "Add backoff tests"]);
  });

  it("when the injection reached the transcript, the prompt hook injects nothing", async () => {
    await hook("pre-compact", { trigger: "manual", custom_instructions: "keep the todos" });
    const start = await hook("session-start", { source: "compact" });
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    const token = /ctx-restore:[\w-]+/.exec(context)?.[0] ?? "missing";
    writeFileSync(transcript, `${readFileSync(transcript, "utf8")}{"type":"attachment","content":"${token}"}\n`);
    const prompt = await hook("user-prompt-submit", { prompt: "go on" });
    expect(prompt).toMatchObject({ code: 0, stdout: "" });
  });

  it("a save that fails blocks the compaction with exit 2 and a reason; with blocking off it does not", async () => {
    const broken = { transcript_path: project }; // a folder, not a transcript
    const blocked = await runCtx(["hook", "pre-compact"], {
      cwd: project,
      env,
      stdin: JSON.stringify({ ...JSON.parse(hookInput("PreCompact", { trigger: "auto" })), ...broken }),
    });
    expect(blocked.code).toBe(2);
    expect(blocked.stdout).toBe("");
    expect(blocked.stderr).toMatch(/could not save and verify the context before compaction.*Compaction blocked/s);
    const allowed = await runCtx(["hook", "pre-compact"], {
      cwd: project,
      env: { ...env, CTX_HOOKS__BLOCK_COMPACTION_ON_SAVE_FAILURE: "false" },
      stdin: JSON.stringify({ ...JSON.parse(hookInput("PreCompact", { trigger: "auto" })), ...broken }),
    });
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toMatch(/compacting anyway/);
  });

  it("startup in a later session gets a short 'where you left off'; resume and fork get nothing", async () => {
    await hook("session-end", { reason: "prompt_input_exit" });
    const later = await runCtx(["hook", "session-start"], {
      cwd: project,
      env,
      stdin: JSON.stringify({
        ...JSON.parse(hookInput("SessionStart", { source: "startup" })),
        session_id: "another-session",
      }),
    });
    const text = (JSON.parse(later.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
      .additionalContext;
    expect(text).toContain("Write the retry helper");
    expect(text.length).toBeLessThanOrEqual(2_500);
    for (const source of ["resume", "fork"]) {
      const quiet = await hook("session-start", { source });
      expect(quiet, source).toMatchObject({ code: 0, stdout: "" });
    }
  });

  it("two sessions in one project: each compaction re-injects its own session's context", async () => {
    expect((await hook("pre-compact", { trigger: "auto" })).code).toBe(0);
    // Session B saves meanwhile (its state becomes the project's newest).
    const other = join(tmpdir(), `other-${session}.jsonl`);
    writeFileSync(other, `${userPrompt({ sessionId: "session-b", cwd: project }, "Unrelated work on the docs.")}\n`);
    const end = await runCtx(["hook", "session-end"], {
      cwd: project,
      env,
      stdin: JSON.stringify({
        session_id: "session-b",
        transcript_path: other,
        cwd: project,
        hook_event_name: "SessionEnd",
        reason: "other",
      }),
    });
    expect(end.code).toBe(0);
    expect((await readProjectState(project))?.sessionId).toBe("session-b");

    const start = await hook("session-start", { source: "compact" });
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).toContain(`session ${session}`);
    expect(context).toContain("Write the retry helper");
    expect(context).not.toContain("Unrelated work on the docs");
  });

  it("out of snapshot space: the state is still saved and re-injected, the compaction is not blocked", async () => {
    const limited = { CTX_RETENTION__MAX_TOTAL_MEGABYTES: "1" };
    const fixture = readFileSync(FIXTURE.long);
    // Random text does not compress: the snapshot is well over the 1 MiB limit whatever the codec.
    const noise = `${JSON.stringify({ type: "system", subtype: "note", content: randomBytes(1_500_000).toString("base64") })}\n`;
    writeFileSync(transcript, Buffer.concat([readFileSync(transcript), fixture, Buffer.from(noise)]));
    const pre = await hook("pre-compact", { trigger: "auto" }, limited);
    expect(pre.code, pre.stderr).toBe(0);
    expect(pre.stderr).toMatch(/no snapshot this time: .*the state itself was saved/);
    expect(await listSnapshots(project)).toHaveLength(0);
    const start = await hook("session-start", { source: "compact" }, limited);
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).toContain("Source: the state saved before this compaction.");
    expect(context).toMatch(/\[ctx-restore:[a-z0-9]+\]$/);
  });

  it("kill -9 during pre-compact never leaves the earlier state or snapshots unreadable", async () => {
    const big = join(tmpdir(), `big-${session}.jsonl`);
    copyFileSync(transcript, big);
    const fixture = readFileSync(FIXTURE.long);
    writeFileSync(big, Buffer.concat([readFileSync(transcript), fixture, fixture]));
    expect((await hook("pre-compact", { trigger: "auto" })).code).toBe(0);
    const stateFile = join(project, ".ctx", "state.ctx");
    for (let round = 0; round < 12; round++) {
      const child = spawn(process.execPath, [CTX_BIN, "hook", "pre-compact"], {
        cwd: project,
        env: { ...process.env, ...env },
        stdio: ["pipe", "ignore", "ignore"],
      });
      // Listen before anything else: a run that finishes before the kill must still be seen to close.
      const closed = new Promise((resolve) => child.on("close", resolve));
      child.stdin.end(
        JSON.stringify({ ...JSON.parse(hookInput("PreCompact", { trigger: "auto" })), transcript_path: big }),
      );
      await new Promise((resolve) => setTimeout(resolve, 40 + ((round * 37) % 250)));
      child.kill("SIGKILL");
      await closed;
      expect((await verifyStateFile(stateFile)).ok, `round ${round}`).toBe(true);
      for (const entry of await listSnapshots(project)) {
        expect(await readSnapshot(project, entry.id, ContextStateSchema), `round ${round} ${entry.id}`).not.toBeNull();
      }
    }
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
  }, 60_000);

  it("kill -9 during session-end never leaves the state or the sessions file unreadable", async () => {
    expect((await hook("session-start", { source: "startup" })).code).toBe(0);
    expect((await hook("pre-compact", { trigger: "auto" })).code).toBe(0);
    const files = [join(project, ".ctx", "state.ctx"), join(project, ".ctx", "sessions.ctx")];
    for (let round = 0; round < 12; round++) {
      const child = spawn(process.execPath, [CTX_BIN, "hook", "session-end"], {
        cwd: project,
        env: { ...process.env, ...env },
        stdio: ["pipe", "ignore", "ignore"],
      });
      // Listen before anything else: a run that finishes before the kill must still be seen to close.
      const closed = new Promise((resolve) => child.on("close", resolve));
      child.stdin.end(hookInput("SessionEnd", { reason: "other" }));
      await new Promise((resolve) => setTimeout(resolve, 20 + ((round * 29) % 120)));
      child.kill("SIGKILL");
      await closed;
      for (const file of files) expect((await verifyStateFile(file)).ok, `round ${round} ${file}`).toBe(true);
    }
    expect(await listSnapshots(project)).toHaveLength(1);
  }, 60_000);
});
