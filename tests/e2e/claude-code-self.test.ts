// The repository's own wiring in the real Claude Code: a copy of the checkout's `.mcp.json`, `.claude/` and
// CLAUDE.md (with this checkout's `dist/`) is a project where `claude mcp list` connects ctx from source,
// `claude doctor` finds no invalid settings, and a `claude -p` session runs the hooks through the
// `${CLAUDE_PROJECT_DIR}` placeholder, loads CLAUDE.md and gets its (ENFORCED) rules listed. Skips like the other
// Claude Code tests.
import { cp, symlink } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { doctorInvalidSettings, mcpServerStatus } from "./harness/claude-output.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { approveProjectMcpServers, createSandbox, runClaude, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-self.test.ts skipped: ${cli.skipReason}\n`);

const TIMEOUT_MS = 90_000;
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

/** A project holding the checkout's own wiring files and a link to its build; ctx is NOT on PATH. */
async function selfWiredSandbox(): Promise<Sandbox> {
  const sandbox = await createSandbox({ claudeBin, ctxOnPath: false });
  sandboxes.push(sandbox);
  for (const path of [".mcp.json", ".claude", "CLAUDE.md"]) {
    await cp(join(REPO_ROOT, path), join(sandbox.project, path), { recursive: true });
  }
  await symlink(join(REPO_ROOT, "dist"), join(sandbox.project, "dist"));
  await approveProjectMcpServers(sandbox);
  return sandbox;
}

describe.skipIf(claudeBin === undefined)(`the repository's own wiring in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it(
    "claude mcp list connects ctx from the checkout's build, and claude doctor finds no invalid settings",
    async () => {
      const sandbox = await selfWiredSandbox();
      const list = await runClaude(sandbox, ["mcp", "list"]);
      expect(mcpServerStatus(list.stdout, "ctx"), list.stdout + list.stderr).toBe("✔ Connected");
      const doctor = await runClaude(sandbox, ["doctor"]);
      expect(doctor.stdout).toContain("Claude Code doctor");
      expect(doctorInvalidSettings(doctor.stdout)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "a session runs the hooks through the CLAUDE_PROJECT_DIR placeholder, loads CLAUDE.md, and offers /check and /fork-detect",
    async () => {
      const sandbox = await selfWiredSandbox();
      const turn = await runClaudeTurn({ sandbox, prompt: "hello", turns: [{ text: "hi" }] });
      expect(turn.exitCode, `${turn.stdout}\n${turn.stderr}`).toBe(0);
      const sessionId = turn.result?.session_id ?? "";
      const status = JSON.parse((await runCtx(sandbox, ["status", "--json"])).stdout) as {
        sessions: { recent: Array<{ sessionId: string; source: string | null }> };
      };
      expect(status.sessions.recent.map((s) => s.sessionId)).toContain(sessionId);
      const rules = JSON.parse((await runCtx(sandbox, ["rules", "list", "--json"])).stdout) as {
        rules: Array<{ text: string }>;
      };
      expect(rules.rules.length).toBeGreaterThanOrEqual(5);
      // Claude Code lists the project's slash commands to the model; /check and /fork-detect are among them.
      const system = JSON.stringify(turn.allRequests.map((request) => request.body));
      expect(system).toContain("whole check (typecheck, lint, layer rules, build, tests)");
      expect(system).toContain("Find the past Claude Code session to fork from");
      // The top-level CLAUDE.md reaches the model as the project's instructions.
      expect(system).toContain("Core stays pure: no file system, process, network or clock");
    },
    TIMEOUT_MS,
  );
});
