// The `ctx search` picker driven through a real pseudo-terminal (tmux, on its own server socket): the highlighted
// session's preview pane follows the selection, the arrow key moves to the second session, Enter picks it, Enter again prints its fork command; Esc cancels with exit 130.
// Off a terminal the list is printed as before (tests/e2e/search-cli.test.ts). A transcript holding OSC 0, OSC 52
// and CSI 2J must reach the picker's terminal escaped: tmux would otherwise set the pane's title and a paste buffer.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingTool } from "../helpers/required-tool.ts";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { assistantText, userPrompt } from "../helpers/transcript-lines.ts";
import { CTX_BIN, runCtx } from "./ctx-process.ts";

const QUERY = "start the phoenix server in the background";
const FIRST = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
const hasTmux = missingTool("tmux", spawnSync("tmux", ["-V"]).status === 0, "apt-get install -y tmux") === null;
const socket = `ctx-picker-test-${process.pid}`;
const root = mkdtempSync(join(tmpdir(), "ctx-picker-"));
const claudeDir = join(root, "claude");
const env = { HOME: join(root, "home"), CTX_HOME: join(root, "ctx-home"), CLAUDE_CONFIG_DIR: claudeDir };

const tmux = (...args: string[]) => spawnSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
const screen = (session: string) => tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session).stdout;

/** Polls the pane until `text` shows (the picker draws asynchronously); fails with the screen after 20 s. */
async function waitFor(session: string, text: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const shown = screen(session);
    if (shown.includes(text)) return shown;
    if (Date.now() > deadline) throw new Error(`"${text}" never appeared on the terminal:\n${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function startSearch(
  session: string,
  search: { query: string; claudeDir: string; env: Record<string, string> } = { query: QUERY, claudeDir, env },
): void {
  const script = join(root, `${session}.sh`);
  const exports = Object.entries({
    ...search.env,
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    TERM: "xterm-256color",
  })
    .map(([name, value]) => `export ${name}='${value}'`)
    .join("\n");
  writeFileSync(
    script,
    `${exports}\nnode '${CTX_BIN}' search '${search.query}' --claude-dir '${search.claudeDir}' --no-refresh\necho "EXIT=$?"\nsleep 60\n`,
  );
  // tmux acts on OSC 52 from a program only with set-clipboard on: set before the session's program starts.
  const started = tmux(
    "start-server",
    ";",
    "set-option",
    "-g",
    "set-clipboard",
    "on",
    ";",
    "new-session",
    "-d",
    "-x",
    "160",
    "-y",
    "50",
    "-s",
    session,
    `bash ${script}`,
  );
  expect(started.status, started.stderr).toBe(0);
}

// The second session in the ranking, as `ctx search --json` gives it (the ranking has its own tests).
let secondForkCommand = "";
let secondMessages = "";
beforeAll(async () => {
  writeSampleClaudeDir(claudeDir);
  const index = await runCtx(["index", "--claude-dir", claudeDir, "--quiet"], { cwd: root, env });
  expect(index.code, index.stderr).toBe(0);
  const ranked = await runCtx(["search", QUERY, "--claude-dir", claudeDir, "--no-refresh", "--json"], {
    cwd: root,
    env,
  });
  expect(ranked.code, ranked.stderr).toBe(0);
  const results = (
    JSON.parse(ranked.stdout) as { results: Array<{ sessionId: string; forkCommand: string; messageCount: number }> }
  ).results;
  expect(results[0]?.sessionId).toBe(FIRST);
  secondForkCommand = results[1]?.forkCommand ?? "";
  expect(secondForkCommand).not.toBe("");
  secondMessages = `· ${results[1]?.messageCount} messages`;
  expect(secondMessages).not.toBe("· 7 messages");
});
afterAll(() => {
  if (hasTmux) tmux("kill-server");
});

describe.skipIf(!hasTmux)("ctx search on a terminal: the picker", () => {
  it("moves to the second session with the arrow key and prints its fork command", async () => {
    startSearch("pick");
    // The highlighted session's preview pane, its matched exchange marked; the pane follows the selection.
    const first = await waitFor("pick", "pick one to fork");
    expect(first).toContain("dates     2026-02-10 22:57 UTC → 2026-02-10 22:59 UTC · 7 messages");
    expect(first).toMatch(/── 3 · 2026-02-10 22:59 UTC · ▶ matched ──/);
    tmux("send-keys", "-t", "pick", "Down");
    const second = await waitFor("pick", secondMessages);
    expect(second).not.toContain("22:59 UTC · 7 messages");
    tmux("send-keys", "-t", "pick", "Enter");
    await waitFor("pick", "print the fork command");
    tmux("send-keys", "-t", "pick", "Enter");
    const shown = await waitFor("pick", "EXIT=");
    expect(shown).toContain("EXIT=0");
    const lines = shown.split("\n").map((line) => line.trim());
    const printed = lines[lines.findIndex((line) => line.startsWith("EXIT=")) - 1];
    expect(printed).toBe(secondForkCommand);
    expect(printed).not.toContain(FIRST);
  });

  it("Esc cancels: nothing printed, exit 130", async () => {
    startSearch("cancel");
    await waitFor("cancel", "pick one to fork");
    tmux("send-keys", "-t", "cancel", "Escape");
    const shown = await waitFor("cancel", "EXIT=");
    expect(shown).toContain("ctx: nothing picked");
    expect(shown).toContain("EXIT=130");
    expect(shown).not.toContain("claude --resume");
  });

  it("break 4: a transcript's OSC 0, OSC 52 and CSI 2J reach the picker's terminal escaped, never acted on", async () => {
    const ESC = String.fromCharCode(0x1b);
    const hostileRoot = join(root, "hostile");
    const hostileClaude = join(hostileRoot, "claude");
    const hostileEnv = {
      HOME: join(hostileRoot, "home"),
      CTX_HOME: join(hostileRoot, "ctx-home"),
      CLAUDE_CONFIG_DIR: hostileClaude,
    };
    const folder = join(hostileClaude, "projects", "-hostile");
    mkdirSync(folder, { recursive: true });
    const line = { sessionId: "7b1e0c2a-5d4f-4e3a-9c8b-1a2b3c4d5e6f", cwd: `/work/proj${ESC}[2J` };
    const osc52 = `${ESC}]52;c;${Buffer.from("pwned clipboard").toString("base64")}${ESC}\\`;
    writeFileSync(
      join(folder, `${line.sessionId}.jsonl`),
      `${userPrompt(line, `${ESC}]0;pwned title${String.fromCharCode(7)}zephyr ${osc52} gearbox`)}\n${assistantText(line, "msg_1", "the zephyr gearbox is tuned")}\n`,
    );
    const index = await runCtx(["index", "--claude-dir", hostileClaude, "--quiet"], { cwd: root, env: hostileEnv });
    expect(index.code, index.stderr).toBe(0);

    startSearch("hostile", { query: "zephyr gearbox", claudeDir: hostileClaude, env: hostileEnv });
    const shown = await waitFor("hostile", "pick one to fork");
    expect(shown).toContain("\\u001b]0;pwned title\\u0007zephyr");
    expect(shown).toContain("\\u001b]52;c;");
    expect(shown).toContain("/work/proj\\u001b[2J");
    expect(tmux("display-message", "-p", "-t", "hostile", "#{pane_title}").stdout).not.toContain("pwned");
    expect(tmux("list-buffers").stdout).toBe("");
    tmux("send-keys", "-t", "hostile", "Escape");
    expect(await waitFor("hostile", "EXIT=")).toContain("EXIT=130");
  });
});
