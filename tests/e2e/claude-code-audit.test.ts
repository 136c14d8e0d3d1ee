// The compaction-loss audit inside the real Claude Code (offline, scripted Messages API mock): a session
// with two open tasks, a decision and a file under two CLAUDE.md rules, then `/compact` whose summary keeps
// one task and one rule. ctx must store the audit beside the snapshot (from PostCompact's compact_summary
// or the transcript's summary entry), report the dropped task and rule as lost, and the next request must
// carry them, once.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listAudits } from "../../src/store/audit/audit-store.ts";
import { listSnapshots } from "../../src/store/snapshots/snapshots.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { messagesText, systemText } from "./harness/messages-api.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { approveProjectMcpServers, createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-audit.test.ts skipped: ${cli.skipReason}\n`);

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

describe.skipIf(claudeBin === undefined)(`compaction audit in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it("audits a real /compact and brings what its summary lost with the next prompt", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    expect((await runCtx(sandbox, ["init"])).exitCode).toBe(0);
    await approveProjectMcpServers(sandbox);
    await writeFile(
      join(sandbox.project, "CLAUDE.md"),
      "# Rules\n\n- Run the linter before every commit. (CRITICAL)\n- Never deploy on Fridays. (ENFORCED)\n",
    );
    const mock = await startMockAnthropic({});
    try {
      const file = join(sandbox.project, "src", "retry.ts");
      const first = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "Add retries to the HTTP client.",
        allowedTools: ["TaskCreate", "TaskUpdate", "Write"],
        turns: [
          {
            toolUse: {
              id: "toolu_t1",
              name: "TaskCreate",
              input: { subject: "Write the retry helper", activeForm: "Writing" },
            },
          },
          {
            toolUse: {
              id: "toolu_t2",
              name: "TaskCreate",
              input: { subject: "Document the backoff constants", activeForm: "Documenting" },
            },
          },
          {
            toolUse: {
              id: "toolu_w",
              name: "Write",
              input: { file_path: file, content: "export const retries = 3;\n" },
            },
          },
          { text: "Started on the retry helper." },
        ],
      });
      expect(first.exitCode, first.stderr).toBe(0);
      const sessionId = first.result?.session_id ?? "";
      expect(sessionId).not.toBe("");

      const compact = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "/compact",
        args: ["--resume", sessionId],
        turns: [
          {
            text: "Summary: the user asked to add retries to the HTTP client. Pending: write the retry helper in src/retry.ts. Rule: run the linter before every commit.",
          },
        ],
      });
      expect(compact.exitCode, compact.stdout + compact.stderr).toBe(0);

      const [snapshot] = await listSnapshots(sandbox.project);
      const { audits } = await listAudits(sandbox.project, sessionId);
      expect(audits).toHaveLength(1);
      const audit = audits[0];
      expect(audit?.snapshotId).toBe(snapshot?.id);
      const lost = audit?.items.filter((item) => item.fate === "lost").map((item) => `${item.kind}: ${item.text}`);
      expect(lost).toEqual(["task: Document the backoff constants", "rule: - Never deploy on Fridays. (ENFORCED)"]);
      process.stderr.write(
        `claude-code-audit: summary from ${audit?.summarySource}; ${audit?.items.length} items, ${lost?.length} lost: ${JSON.stringify(audit?.items.map((i) => [i.kind, i.fate]))}\n`,
      );

      const next = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "What were we doing?",
        args: ["--resume", sessionId],
        turns: [{ text: "Documenting the backoff constants." }],
      });
      expect(next.exitCode, next.stderr).toBe(0);
      const request = next.requests[0]?.body ?? {};
      const seen = `${systemText(request)}\n${messagesText(request)}`;
      // 2.1.330 runs SessionStart `compact` before the summary exists (and before PostCompact): the lost
      // items come with the first prompt after the compaction, from UserPromptSubmit.
      const head = seen.indexOf("## What the compaction summary lost (2 of");
      expect(head).toBeGreaterThanOrEqual(0);
      expect(seen.indexOf("- open task: Document the backoff constants")).toBeGreaterThan(head);
      expect(seen.indexOf("- rule: - Never deploy on Fridays. (ENFORCED)")).toBeGreaterThan(head);
      expect(seen.indexOf("What the compaction summary lost")).toBe(
        seen.lastIndexOf("What the compaction summary lost"),
      );

      const report = await runCtx(sandbox, ["audit", "--json"]);
      expect(JSON.parse(report.stdout).compactions[0]).toMatchObject({ sessionId, lost: 2 });
    } finally {
      await mock.close();
    }
  }, 240_000);
});
