// Compaction inside the real Claude Code (offline, scripted Messages API mock): a session whose turns
// write a todo list and a file, then `/compact`, then a new prompt. ctx's PreCompact hook must leave a
// verified snapshot, and the next request Claude Code sends must carry ctx's re-injected state (from the
// SessionStart `compact` injection, or else from ctx's UserPromptSubmit fallback).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ContextStateSchema } from "../../src/core/context/extract.ts";
import { readInjection } from "../../src/store/context/injection.ts";
import { verifyStateFile } from "../../src/store/files/state-file.ts";
import { readGuardState } from "../../src/store/guard/guard-store.ts";
import { listSnapshots, readSnapshot } from "../../src/store/snapshots/snapshots.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { messagesText, systemText, toolNames } from "./harness/messages-api.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { approveProjectMcpServers, createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-compaction.test.ts skipped: ${cli.skipReason}\n`);

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

describe.skipIf(claudeBin === undefined)(`compaction with ctx in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it("pre-compact snapshots the session and the next request carries ctx's re-injected todos", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    expect((await runCtx(sandbox, ["init"])).exitCode).toBe(0);
    await approveProjectMcpServers(sandbox);
    const mock = await startMockAnthropic({});
    try {
      const file = join(sandbox.project, "src", "retry.ts");
      const first = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "Add retries to the HTTP client. We decided to use exponential backoff.",
        allowedTools: ["TaskCreate", "TaskUpdate", "Write"],
        turns: [
          {
            toolUse: {
              id: "toolu_task1",
              name: "TaskCreate",
              input: { subject: "Write the retry helper", activeForm: "Writing the retry helper" },
            },
          },
          {
            toolUse: {
              id: "toolu_task2",
              name: "TaskCreate",
              input: { subject: "Add jittered backoff tests", activeForm: "Adding jittered backoff tests" },
            },
          },
          { toolUse: { id: "toolu_task3", name: "TaskUpdate", input: { taskId: "1", status: "completed" } } },
          { toolUse: { id: "toolu_task4", name: "TaskUpdate", input: { taskId: "2", status: "in_progress" } } },
          {
            toolUse: {
              id: "toolu_write",
              name: "Write",
              input: { file_path: file, content: "export const retries = 3;\n" },
            },
          },
          { text: "The helper is written; the backoff tests are next." },
        ],
      });
      expect(first.exitCode, first.stderr).toBe(0);
      // Claude Code 2.1.330 keeps its task list with the Task* tools (TodoWrite is gone).
      expect(toolNames(first.requests[0]?.body ?? {})).toEqual(
        expect.arrayContaining(["TaskCreate", "TaskUpdate", "Write"]),
      );
      const sessionId = first.result?.session_id ?? "";
      expect(sessionId).not.toBe("");
      expect(await readFile(file, "utf8")).toBe("export const retries = 3;\n");

      const compact = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "/compact",
        args: ["--resume", sessionId],
        turns: [{ text: "Summary: retry helper written, jittered backoff tests in progress." }],
      });
      expect(compact.exitCode, compact.stdout + compact.stderr).toBe(0);

      const snapshots = await listSnapshots(sandbox.project);
      expect(snapshots.length).toBeGreaterThanOrEqual(1);
      const snapshot = await readSnapshot(sandbox.project, snapshots[0]?.id ?? "", ContextStateSchema);
      expect(snapshot?.snapshot).toMatchObject({ sessionId, trigger: "manual" });
      expect(snapshot?.state.todos?.items.map((t) => t.content)).toContain("Add jittered backoff tests");
      expect(snapshot?.state.files.map((f) => f.path)).toContain(file);
      expect((await verifyStateFile(join(sandbox.project, ".ctx", "state.ctx"))).ok).toBe(true);
      // PostCompact noted the compaction in the context guard: `ctx status` and `ctx_health` show the context after
      // it, not the last tool call's figures from before it (#24).
      expect(readGuardState(sandbox.project, sessionId)?.lastCompaction).toMatchObject({ trigger: "manual" });

      const next = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "What were we doing?",
        args: ["--resume", sessionId],
        turns: [{ text: "We were adding the jittered backoff tests." }],
      });
      expect(next.exitCode, next.stderr).toBe(0);
      const request = next.requests[0]?.body ?? {};
      const seen = `${systemText(request)}\n${messagesText(request)}`;
      expect(seen).toContain(`ctx-restore:${snapshots[0]?.id}`);
      expect(seen).toContain("Adding jittered backoff tests");
      // Which path delivered it: SessionStart `compact` (its token reached the transcript, so the prompt
      // hook only settled it; what 2.1.330 does) or the UserPromptSubmit fallback (what a version with the
      // dropped-injection bug would need). Either way it reached the model, as checked above.
      const injection = await readInjection(sandbox.project);
      expect(injection).toMatchObject({ sessionId, settled: true });
      expect(["session-start", "user-prompt-submit"]).toContain(injection?.injectedBy);
    } finally {
      await mock.close();
    }
  }, 180_000);
});
