// A fake `claude` executable for the claude-cli summary provider's tests: a small node script put first on
// PATH. It checks the arguments and environment the provider must pass (-p, --output-format json,
// --no-session-persistence, --model, CTX_HOOKS_DISABLED=1), logs each call, and answers in Claude Code's
// `--output-format json` result shape. FAKE_CLAUDE_MODE picks a misbehaviour: error, garbage, hang, partial, secret.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

const SCRIPT = String.raw`#!/usr/bin/env node
const fs = require("node:fs");
const args = process.argv.slice(2);
const problems = [];
const need = (flag) => { if (!args.includes(flag)) problems.push("missing " + flag); };
need("-p"); need("--no-session-persistence");
const at = (flag) => { const i = args.indexOf(flag); return i < 0 ? undefined : args[i + 1]; };
if (at("--output-format") !== "json") problems.push("--output-format is not json");
const model = at("--model");
if (!model) problems.push("missing --model");
if (process.env.CTX_HOOKS_DISABLED !== "1") problems.push("CTX_HOOKS_DISABLED is not 1");
let prompt = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { prompt += chunk; });
process.stdin.on("end", () => {
  fs.appendFileSync(process.env.FAKE_CLAUDE_LOG, JSON.stringify({ args, hooksDisabled: process.env.CTX_HOOKS_DISABLED, cwd: process.cwd(), prompt }) + "\n");
  if (problems.length > 0) { process.stderr.write("fake claude: " + problems.join(", ") + "\n"); process.exit(3); }
  const mode = process.env.FAKE_CLAUDE_MODE || "ok";
  if (mode === "hang") { setTimeout(() => {}, 60000); return; }
  if (mode === "garbage") { process.stdout.write("Error: something broke\n"); process.exit(1); }
  const ids = [...prompt.matchAll(/<message id="(m\d+)"[^>]*>\n([^\n]*)/g)];
  const summaries = {};
  for (const [, id, first] of ids) {
    if (mode === "partial" && id === "m1") continue;
    summaries[id] = "LLM: " + first.slice(0, 40) + (mode === "secret" ? " key sk-ant-" + "api03-abcDEF123_xyZ987-qwerTY456uiop0987zxcvb" : "");
  }
  const result = {
    type: "result", subtype: mode === "error" ? "error_during_execution" : "success", is_error: mode === "error",
    duration_ms: 12, duration_api_ms: 10, num_turns: 1,
    result: mode === "error" ? "Not logged in" : JSON.stringify({ summaries }),
    session_id: "00000000-0000-0000-0000-000000000000", total_cost_usd: 0.0001,
    usage: { input_tokens: Math.ceil(prompt.length / 4), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 * ids.length },
    modelUsage: {}, permission_denials: [],
  };
  process.stdout.write(JSON.stringify(result) + "\n");
});
`;

export interface FakeClaude {
  binDir: string;
  logPath: string;
  /** The environment that puts the fake first on PATH (add FAKE_CLAUDE_MODE as needed). */
  env: NodeJS.ProcessEnv;
  calls: () => Array<{ args: string[]; hooksDisabled: string | undefined; cwd: string; prompt: string }>;
}

export function installFakeClaude(base = mkdtempSync(join(tmpdir(), "ctx-fake-claude-"))): FakeClaude {
  const binDir = join(base, "bin");
  mkdirSync(binDir, { recursive: true });
  const script = join(binDir, "claude");
  writeFileSync(script, SCRIPT);
  chmodSync(script, 0o755);
  const logPath = join(base, "calls.jsonl");
  writeFileSync(logPath, "");
  return {
    binDir,
    logPath,
    env: {
      PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}`,
      FAKE_CLAUDE_LOG: logPath,
      CTX_HOME: join(base, "ctx-home"),
      HOME: base,
    },
    calls: () =>
      readFileSync(logPath, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line)),
  };
}
