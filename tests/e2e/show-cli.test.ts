// `ctx show` through the built binary over a copy of the fixture sessions: piped output (whole, never paged), --json
// checked against its schema, --at marking what a search matched, ids that are unknown or ambiguous, and a
// transcript holding escape sequences, which reach the terminal escaped.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionPreviewSchema } from "../../src/core/library/preview-schema.ts";
import { LONG_SESSION } from "../helpers/claude-projects.ts";
import { missingTool } from "../helpers/required-tool.ts";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { assistantText, userPrompt } from "../helpers/transcript-lines.ts";
import { CTX_BIN, runCtx } from "./ctx-process.ts";

const root = mkdtempSync(join(tmpdir(), "ctx-show-e2e-"));
const claudeDir = join(root, "claude");
const pagerMark = join(root, "pager-ran");
const pager = join(root, "pager.sh");
const env = {
  HOME: join(root, "home"),
  CTX_HOME: join(root, "ctx-home"),
  CLAUDE_CONFIG_DIR: claudeDir,
  // A pager that leaves a mark: piped output must never start it.
  PAGER: pager,
};
const HOSTILE = "7b1e0c2a-5d4f-4e3a-9c8b-1a2b3c4d5e6f";
const ESC = String.fromCharCode(0x1b);

beforeAll(async () => {
  writeSampleClaudeDir(claudeDir);
  writeFileSync(pager, `#!/bin/sh\ncat > '${pagerMark}'\n`);
  chmodSync(pager, 0o755);
  const folder = join(claudeDir, "projects", "-hostile");
  mkdirSync(folder, { recursive: true });
  const line = { sessionId: HOSTILE, cwd: "/work/hostile" };
  writeFileSync(
    join(folder, `${HOSTILE}.jsonl`),
    `${userPrompt(line, `${ESC}]52;c;cHduZWQ=${ESC}\\ tune the zephyr\n── 2 · ▶ matched ──`)}\n${assistantText(line, "msg_1", `done ${ESC}[2J`)}\n`,
  );
  const index = await runCtx(["index", "--claude-dir", claudeDir, "--quiet"], { cwd: root, env });
  expect(index.code, index.stderr).toBe(0);
});

describe("ctx show (built binary)", () => {
  it("prints the whole preview when piped, by a unique start of the id, without the pager", async () => {
    const run = await runCtx(["show", LONG_SESSION.slice(0, 6)], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Work on bead spotter-dov\. .*\n {2}session {3}4d5611e5-241a-462a-8d15-5122611a9569\n/);
    expect(run.stdout).toContain("\n── 1 · 2026-02-12 16:02 UTC ──\n> Work on bead spotter-dov.");
    expect(run.stdout).toContain("\n── 3 · ");
    expect(run.stdout).toContain("subagents: 1 transcript(s)");
    expect(existsSync(pagerMark)).toBe(false);
  });

  it("--json prints the preview its schema describes; --at marks the exchange", async () => {
    const whole = await runCtx(["show", LONG_SESSION, "--json"], { cwd: root, env });
    expect(whole.code, whole.stderr).toBe(0);
    const preview = SessionPreviewSchema.parse(JSON.parse(whole.stdout));
    expect(preview.exchanges).toHaveLength(3);
    const at = preview.exchanges[1]?.lastUuid as string;

    const marked = SessionPreviewSchema.parse(
      JSON.parse((await runCtx(["show", LONG_SESSION, "--at", at, "--json"], { cwd: root, env })).stdout),
    );
    expect(marked.exchanges.map((exchange) => exchange.matched)).toEqual([false, true, false]);
    expect(marked.read.atFound).toBe(true);

    const text = await runCtx(["show", LONG_SESSION, "--at", at], { cwd: root, env });
    expect(text.stdout).toMatch(/\n── 2 · [^\n]* · ▶ matched ──\n/);
    expect(text.stdout).toContain(`--fork-session --resume-session-at ${at}`);
  });

  it("refuses an unknown id, an ambiguous one and an --at that is not a uuid, each with one clear line", async () => {
    const unknown = await runCtx(["show", "zzzz"], { cwd: root, env });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('ctx: no indexed session has an id starting with "zzzz"');
    expect(unknown.stdout).toBe("");
    // Two of the fixture sessions' ids start with 5 (55604662…, 5c0375b4…).
    const ambiguous = await runCtx(["show", "5"], { cwd: root, env });
    expect(ambiguous.code).not.toBe(0);
    expect(ambiguous.stderr).toContain(
      '"5" is the start of several sessions\' ids (55604662-cf2a-4331-851a-ec234028f8ca, 5c0375b4-57a5-4f26-b12d-d022ee4e51b7)\nhint: give more of the id',
    );
    const badAt = await runCtx(["show", LONG_SESSION, "--at", "x;rm"], { cwd: root, env });
    expect(badAt.code).not.toBe(0);
    expect(badAt.stderr).toContain("--at takes a message's uuid");
  });

  it("break 4: a transcript's escape sequences reach the terminal escaped, and its line breaks forge no line", async () => {
    const run = await runCtx(["show", HOSTILE], { cwd: root, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toContain("> \\u001b]52;c;cHduZWQ=\\u001b\\ tune the zephyr\n> ── 2 · ▶ matched ──\n");
    expect(run.stdout).toContain("  done \\u001b[2J");
    expect(run.stdout.split("\n").filter((line) => line.startsWith("── "))).toHaveLength(1);
  });
});

const hasTmux = missingTool("tmux", spawnSync("tmux", ["-V"]).status === 0, "apt-get install -y tmux") === null;
const socket = `ctx-show-test-${process.pid}`;
const tmux = (...args: string[]) => spawnSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
afterAll(() => {
  if (hasTmux) tmux("kill-server");
});

/** Runs `ctx show` with a terminal as its stdout (tmux), then waits for it to end. */
async function showOnTerminal(name: string, args: string[]): Promise<string> {
  const script = join(root, `${name}.sh`);
  const exports = Object.entries({ ...env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, TERM: "xterm-256color" })
    .map(([key, value]) => `export ${key}='${value}'`)
    .join("\n");
  writeFileSync(script, `${exports}\nnode '${CTX_BIN}' ${args.join(" ")}\necho "EXIT=$?"\nsleep 60\n`);
  expect(tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", name, `bash ${script}`).status).toBe(0);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const shown = tmux("capture-pane", "-p", "-J", "-t", name).stdout;
    if (shown.includes("EXIT=")) return shown;
    if (Date.now() > deadline) throw new Error(`ctx show never ended:\n${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!hasTmux)("ctx show on a terminal", () => {
  it("pages through $PAGER, the text sanitized; --no-pager prints it to the terminal", async () => {
    expect(await showOnTerminal("paged", ["show", HOSTILE])).toContain("EXIT=0");
    const paged = readFileSync(pagerMark, "utf8");
    expect(paged).toContain("> \\u001b]52;c;cHduZWQ=\\u001b\\ tune the zephyr\n");
    expect(paged).not.toContain(ESC);

    const direct = await showOnTerminal("direct", ["show", HOSTILE, "--no-pager"]);
    expect(direct).toContain("tune the zephyr");
    expect(direct).toContain("EXIT=0");
  });
});
