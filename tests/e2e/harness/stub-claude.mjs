#!/usr/bin/env node
import { spawn } from "node:child_process";
// A stand-in for `claude -p --output-format json` where the real CLI is not the point (load tests, benchmarks):
// reads the prompt on stdin, answers `echo <n>: <first line>` as Claude Code's JSON result, keeps the session id
// across --resume. STUB_CLAUDE_DELAY_MS delays the answer; STUB_CLAUDE_COUNTER (a file) counts calls, and
// STUB_CLAUDE_KILL_PARENT_AT=<n> makes call n SIGKILL the bridge (its parent) while it waits for the answer.
// STUB_CLAUDE_MODE: "fail" exits 3, "garbage" prints non-JSON, "hang" never answers (and starts a child),
// "chaos" answers as chaos-claude.mjs describes (message ids echoed on every line, growing usage).
import { randomUUID } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { chaosAnswer } from "./chaos-claude.mjs";

const args = process.argv.slice(2);
const resumeAt = args.indexOf("--resume");
const sessionId = resumeAt >= 0 ? args[resumeAt + 1] : randomUUID();
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const prompt = Buffer.concat(chunks).toString("utf8");
let call = 0;
const counter = process.env.STUB_CLAUDE_COUNTER;
if (counter) {
  appendFileSync(counter, `${prompt.split("\n")[0].slice(0, 200)}\n`);
  call = readFileSync(counter, "utf8").split("\n").filter(Boolean).length;
}
if (process.env.STUB_CLAUDE_KILL_PARENT_AT && Number(process.env.STUB_CLAUDE_KILL_PARENT_AT) === call) {
  process.kill(process.ppid, "SIGKILL");
}
const mode = process.env.STUB_CLAUDE_MODE ?? "";
if (mode === "hang") {
  // Like Claude Code with a hook or MCP server running: a child in the same process group, whose pid is left
  // in STUB_CLAUDE_PIDS so a test can check that the timeout ended the whole group.
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  if (process.env.STUB_CLAUDE_PIDS) writeFileSync(process.env.STUB_CLAUDE_PIDS, `${process.pid} ${child.pid}\n`);
  await new Promise(() => setInterval(() => {}, 1000));
}
const delay = Number(process.env.STUB_CLAUDE_DELAY_MS ?? 0);
if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
if (mode === "fail") {
  process.stderr.write("stub claude: failing on purpose\n");
  process.exit(3);
}
if (mode === "chaos") {
  const seedAt = args.indexOf("--append-system-prompt");
  const seed = seedAt >= 0 ? (args[seedAt + 1] ?? "") : "";
  const { text, usage } = chaosAnswer({ prompt, sessionId, seed, env: process.env });
  process.stdout.write(
    `${JSON.stringify({ type: "result", subtype: "success", is_error: false, result: text, session_id: sessionId, num_turns: 1, usage })}\n`,
  );
  process.exit(0);
}
if (mode === "garbage") {
  process.stdout.write("this is not JSON\n");
  process.exit(0);
}
process.stdout.write(
  `${JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: false,
    result: `echo ${call}: ${prompt.split("\n")[0].slice(0, 200)}`,
    session_id: sessionId,
    num_turns: 1,
    usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000 },
  })}\n`,
);
