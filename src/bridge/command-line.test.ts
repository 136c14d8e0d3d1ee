// Break 5 (issue #22) through the real runner: a stored summary holding NUL, as a rollover wrote it before the
// cleaning, must not break the conversation; an error reply never quotes the system prompt; `/new` after a failed
// turn starts without the summary. Claude is tests/e2e/harness/stub-claude.mjs or a script written here.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { JournalMessage } from "../core/bridge/journal.ts";
import { newBridgeSession } from "../core/bridge/session.ts";
import { CtxError } from "../errors.ts";
import { readBridgeSession, updateBridgeSession } from "../store/bridge/session-store.ts";
import { runClaudeProcess } from "../summaries/claude-process.ts";
import { CHAT_COMMANDS } from "./chat-commands.ts";
import { createClaudeRunner } from "./claude-runner.ts";
import { answerMessage, type ConversationDeps } from "./conversation.ts";

const STUB = fileURLToPath(new URL("../../tests/e2e/harness/stub-claude.mjs", import.meta.url));
const KEY = "3:42";
const NUL = String.fromCharCode(0);
const SUMMARY = `The person prefers tabs.${NUL} They work on the payroll export.`;

let ids = 0;
const message = (text: string): JournalMessage => ({
  id: `m${++ids}`,
  at: "2026-01-01T00:00:00.000Z",
  key: KEY,
  userId: "42",
  username: "ann",
  channelId: "3",
  channelName: "dev",
  postId: null,
  text,
  bytes: Buffer.byteLength(text),
});

/** A Claude that writes its arguments to a file and answers (or, with fail, prints them on stderr and exits 2). */
function writeArgvClaude(dir: string, fail: boolean): { command: string; argsLog: string } {
  const command = join(dir, fail ? "failing-claude.cjs" : "argv-claude.cjs");
  const argsLog = join(dir, "args.jsonl");
  writeFileSync(
    command,
    `#!/usr/bin/env node
const fs = require("node:fs");
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(argsLog)}, JSON.stringify(args) + "\\n");
${fail ? 'process.stderr.write("bad arguments: " + args.join(" ") + "\\n"); process.exit(2);' : ""}
process.stdout.write(JSON.stringify({ type: "result", is_error: false, result: "ok", session_id: "s-1", usage: { input_tokens: 10 } }) + "\\n");
`,
  );
  chmodSync(command, 0o755);
  return { command, argsLog };
}

async function world(command: string) {
  const dir = await mkdtemp(join(tmpdir(), "ctx-cmdline-"));
  const logged: string[] = [];
  const runner = createClaudeRunner({
    command,
    args: [],
    cwd: dir,
    timeoutMs: 20_000,
    env: { ...process.env, STUB_CLAUDE_MODE: "" },
    transcriptDir: null,
    warn: (line) => logged.push(line),
  });
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const deps: ConversationDeps = {
    sessionsDir: join(dir, "sessions"),
    limits: { softLimitTokens: 120_000, hardLimitTokens: 180_000, idleMinutes: 30 },
    inputChunkChars: 15_000,
    maxInputBytes: 1_048_576,
    runClaude: runner.run,
    summarize: async (session) => ({ summary: session.summary, provider: "extractive", warnings: [] }),
    redact: (text) => text,
    now: () => {
      clock += 1_000;
      return new Date(clock);
    },
    warn: (line) => logged.push(line),
  };
  // The state a rollover left before the fix: a summary holding NUL, a new Claude session still to start.
  const planted = {
    ...newBridgeSession(
      { key: KEY, userId: "42", username: "ann", channelId: "3", channelName: "dev" },
      new Date(clock),
    ),
    summary: SUMMARY,
    summaries: 1,
    history: [{ role: "user" as const, text: `hi${NUL}there`, at: new Date(clock).toISOString(), chars: 8 }],
  };
  await updateBridgeSession(deps.sessionsDir, KEY, () => planted);
  return { dir, deps, logged };
}

describe("break 5: one NUL character breaks a conversation for good", () => {
  it("break 5: a stored summary holding NUL seeds the turn cleaned, and later messages work", async () => {
    const { deps } = await world(STUB);
    const stored = await readBridgeSession(deps.sessionsDir, KEY);
    expect(stored?.summary).toBe("The person prefers tabs. They work on the payroll export.");
    expect(stored?.history[0]?.text).toBe("hithere");
    const first = await answerMessage(message("what do I prefer?"), deps);
    expect(first.failed).toBe(false);
    expect(first.text).toMatch(/^echo \d*: what do I prefer\?$/);
    const second = await answerMessage(message(`and${NUL} now\u0007?`), deps);
    expect(second.failed).toBe(false);
    expect(second.text).toMatch(/: and now\?$/);
    const after = await readBridgeSession(deps.sessionsDir, KEY);
    expect(after?.seed).toContain("The person prefers tabs. They work");
    expect(JSON.stringify(after)).not.toContain("\\u0000");
  });

  it("break 5: the seed reaches Claude's command line without NUL", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-cmdline-argv-"));
    const { command, argsLog } = writeArgvClaude(dir, false);
    const { deps } = await world(command);
    expect((await answerMessage(message("hello"), deps)).failed).toBe(false);
    const args = JSON.parse(readFileSync(argsLog, "utf8").trim()) as string[];
    const seed = args[args.indexOf("--append-system-prompt") + 1];
    expect(seed).toContain("The person prefers tabs. They work on the payroll export.");
  });

  it("break 5: an error reply never quotes the system prompt, and /new then starts without the summary", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-cmdline-fail-"));
    const failing = writeArgvClaude(dir, true).command;
    const { deps, logged } = await world(failing);
    const failed = await answerMessage(message("hello"), deps);
    expect(failed.failed).toBe(true);
    expect(failed.text).toContain("Claude exited with code 2");
    expect(failed.text).not.toContain("prefers tabs");
    expect(failed.text).not.toContain("append-system-prompt");
    expect(failed.text).not.toContain("Synology Chat bridge");
    // The detail (Claude's stderr) is the log's.
    expect(logged.join("\n")).toContain("bridge: Claude exited with code 2: <conversation-summary>");
    expect((await readBridgeSession(deps.sessionsDir, KEY))?.lastTurnFailed).toBe(true);

    // A chat command, answered before the conversation (chat-commands.ts).
    const queue = { queuedHere: 0, queuedTotal: 0, running: 1, pendingParts: 0, oldestPendingMs: null };
    const renewed = await CHAT_COMMANDS.new(message("/new"), { ...deps, windowTokens: 200_000, queue });
    expect(renewed).toContain("without the earlier summary");
    const fresh = await readBridgeSession(deps.sessionsDir, KEY);
    expect(fresh?.summary).toBe("");
    expect(fresh?.history).toEqual([]);
    expect(fresh?.seed).toBeNull();
    expect(fresh?.claudeSessionId).toBeNull();

    // The next message runs (a working Claude now) without any seed.
    const { command, argsLog } = writeArgvClaude(dir, false);
    const later = await answerMessage(message("again"), { ...deps, runClaude: runnerFor(command, dir) });
    expect(later.failed).toBe(false);
    const lastArgs = JSON.parse(readFileSync(argsLog, "utf8").trim().split("\n").at(-1) as string) as string[];
    expect(lastArgs).not.toContain("--append-system-prompt");
  });

  it("break 5: a spawn Node refuses is an outcome, and the error names its code, not the argument", async () => {
    // Node refuses an environment value holding NUL before it starts anything, quoting the value.
    const env = { ...process.env, SEED: `secret-system-prompt${NUL}` };
    const outcome = await runClaudeProcess({
      command: STUB,
      args: [],
      cwd: tmpdir(),
      env,
      input: "",
      timeoutMs: 5_000,
      killGraceMs: 0,
      maxStdoutBytes: 1_000,
    });
    expect(outcome.kind).toBe("spawn-failed");
    const logged: string[] = [];
    const runner = createClaudeRunner({
      command: STUB,
      args: [],
      cwd: tmpdir(),
      timeoutMs: 5_000,
      env,
      transcriptDir: null,
      warn: (line) => logged.push(line),
    });
    const error = await runner.run({ prompt: "p", resume: null, appendSystemPrompt: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CtxError);
    expect((error as CtxError).message).toMatch(/could not start .* \(ERR_INVALID_ARG_VALUE\)$/);
    expect((error as CtxError).message).not.toContain("secret-system-prompt");
    expect(logged.join("\n")).toContain("could not start");
  });

  it("break 5: arguments holding NUL reach the child cleaned instead of failing the spawn", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ctx-cmdline-args-"));
    const { command, argsLog } = writeArgvClaude(dir, false);
    const outcome = await runClaudeProcess({
      command,
      args: ["--append-system-prompt", `a${NUL}b\u001b[2Jc\nd\te`],
      cwd: dir,
      env: process.env,
      input: "",
      timeoutMs: 20_000,
      killGraceMs: 0,
      maxStdoutBytes: 100_000,
    });
    expect(outcome.kind).toBe("exited");
    expect(JSON.parse(readFileSync(argsLog, "utf8").trim())).toEqual(["--append-system-prompt", "ab[2Jc\nd\te"]);
  });
});

function runnerFor(command: string, cwd: string) {
  return createClaudeRunner({ command, args: [], cwd, timeoutMs: 20_000, env: process.env, transcriptDir: null }).run;
}
