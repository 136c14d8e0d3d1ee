// The transcript archive against the real Claude Code CLI (offline, scripted Messages API mock): a real
// session's transcript, aged past the point where Claude Code's cleanup is a week away (mtime set back), is
// archived by `ctx archive run`, deleted as the cleanup would delete it (the file and its session folder),
// restored byte for byte by `ctx archive restore`, and then resumed by `claude --resume`: the resumed
// request carries the old conversation. A damaged archive is reported and restores nothing.
import { existsSync } from "node:fs";
import { readFile, rm, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { quoteShellWord } from "../../src/core/shell/quote.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { messagesText } from "./harness/messages-api.ts";
import { startMockAnthropic } from "./harness/mock-anthropic.ts";
import { createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-archive.test.ts skipped: ${cli.skipReason}\n`);

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

const DAY = 86_400_000;

describe.skipIf(claudeBin === undefined)(`transcript archive with Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it("archives an aged transcript, restores it byte for byte after deletion, and claude --resume works", async () => {
    const sandbox = await createSandbox({ claudeBin });
    sandboxes.push(sandbox);
    const mock = await startMockAnthropic({});
    try {
      const first = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "Remember the codeword: PELICAN-42.",
        turns: [{ text: "Noted: PELICAN-42." }],
      });
      expect(first.exitCode, first.stderr).toBe(0);
      const sessionId = first.result?.session_id ?? "";
      const transcript = first.transcriptPath ?? "";
      expect(existsSync(transcript)).toBe(true);
      const original = await readFile(transcript);

      // 25 days old: with the default 30-day period, within a week of Claude Code's cleanup.
      const aged = new Date(Date.now() - 25 * DAY);
      await utimes(transcript, aged, aged);
      const run = await runCtx(sandbox, ["archive", "run", "--json"]);
      expect(run.exitCode, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as { cleanupPeriodDays: number; archived: { sessionId: string }[] };
      expect(report.cleanupPeriodDays).toBe(30);
      expect(report.archived.map((a) => a.sessionId)).toEqual([sessionId]);
      const list = JSON.parse((await runCtx(sandbox, ["archive", "list", "--json"])).stdout);
      expect(list.sessions).toEqual([
        expect.objectContaining({ sessionId, transcriptPath: transcript, bytes: expect.any(Number) }),
      ]);

      // What Claude Code's cleanup does: the transcript and its session folder are gone.
      await rm(transcript);
      await rm(join(dirname(transcript), sessionId), { recursive: true, force: true });
      const restore = await runCtx(sandbox, ["archive", "restore", sessionId, "--json"]);
      expect(restore.exitCode, restore.stderr).toBe(0);
      expect(JSON.parse(restore.stdout)).toMatchObject({
        restored: [transcript],
        resumeCommand: `cd ${quoteShellWord(sandbox.project)} && claude --resume ${sessionId}`,
      });
      expect((await readFile(transcript)).equals(original)).toBe(true);

      const resumed = await runClaudeTurn({
        sandbox,
        mock,
        prompt: "What was the codeword?",
        args: ["--resume", sessionId],
        turns: [{ text: "PELICAN-42." }],
      });
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(resumed.result?.session_id).toBe(sessionId);
      expect(messagesText(resumed.requests[0]?.body ?? {})).toContain("Remember the codeword: PELICAN-42.");

      // A damaged archive: reported, and nothing is restored from it.
      const container = join(sandbox.home, ".ctx", "archive", `${sessionId}.ctx`);
      const bytes = await readFile(container);
      bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 0xff;
      await writeFile(container, bytes);
      await rm(transcript);
      const damaged = await runCtx(sandbox, ["archive", "restore", sessionId]);
      expect(damaged.exitCode).toBe(1);
      expect(damaged.stderr).toContain(`the archive of session ${sessionId} is damaged`);
      expect(existsSync(transcript)).toBe(false);
    } finally {
      await mock.close();
    }
  }, 240_000);
});
