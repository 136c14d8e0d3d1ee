// ctx inside the real Claude Code CLI (pinned npm release, offline): after the built `ctx init`, Claude Code
// connects the MCP server, accepts the hook settings, calls ctx_status in a scripted turn, and ctx's hooks
// record the session; and the README's plugin steps install the plugin folder that `pnpm build` writes, offline. Skips
// with a reason when the CLI cannot be installed, unless CI is set.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CTX_HOOK_SPECS } from "../../src/core/setup/init/hooks-spec.ts";
import { PLUGIN_FOLDER } from "../../src/core/setup/plugin-files.ts";
import { readSessionsSeen } from "../../src/store/sessions/seen.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { doctorInvalidSettings, mcpServerStatus } from "./harness/claude-output.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { toolNames, toolResults } from "./harness/messages-api.ts";
import { approveProjectMcpServers, createSandbox, runClaude, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code.test.ts skipped: ${cli.skipReason}\n`);

const TIMEOUT_MS = 90_000;
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const sandboxes: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

async function newSandbox(ctxOnPath = true): Promise<Sandbox> {
  const sandbox = await createSandbox({ ctxOnPath, claudeBin });
  sandboxes.push(sandbox);
  return sandbox;
}

/**
 * A temp HOME and git repo where the built `ctx init` ran and the user approved the ctx MCP server. With
 * `ctxOnPath` ctx init writes plain `ctx` commands (a global install); without, `<node> <dist/ctx.js>`.
 */
async function initializedSandbox(ctxOnPath = true): Promise<Sandbox> {
  const sandbox = await newSandbox(ctxOnPath);
  const init = await runCtx(sandbox, ["init"]);
  expect(init.exitCode, `ctx init failed:\n${init.stdout}\n${init.stderr}`).toBe(0);
  await approveProjectMcpServers(sandbox);
  return sandbox;
}

interface StatusJson {
  project: { root: string; initialized: boolean };
  sessions: {
    count: number;
    recent: {
      sessionId: string;
      source: string | null;
      startedAt: string;
      endedAt: string | null;
      endReason: string | null;
      transcriptPath: string | null;
    }[];
  };
}

const COMMAND_FORMS = [
  { form: "`ctx` on PATH", ctxOnPath: true },
  { form: "absolute node + dist/ctx.js", ctxOnPath: false },
];

describe.skipIf(claudeBin === undefined)(`ctx in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  describe.each(COMMAND_FORMS)("with ctx init's commands as $form", ({ ctxOnPath }) => {
    it(
      "claude mcp list reports ctx's MCP server as connected",
      async () => {
        const sandbox = await initializedSandbox(ctxOnPath);
        const mcp = JSON.parse(await readFile(join(sandbox.project, ".mcp.json"), "utf8"));
        expect(mcp.mcpServers.ctx.command, "the command form under test").toBe(ctxOnPath ? "ctx" : process.execPath);
        const list = await runClaude(sandbox, ["mcp", "list"]);
        // Exit code 0 whatever the health: the text is the verdict.
        expect(mcpServerStatus(list.stdout, "ctx"), list.stdout + list.stderr).toBe("✔ Connected");
      },
      TIMEOUT_MS,
    );

    it(
      "claude doctor finds no invalid settings in the hooks ctx wrote",
      async () => {
        const sandbox = await initializedSandbox(ctxOnPath);
        const settings = JSON.parse(await readFile(join(sandbox.project, ".claude", "settings.json"), "utf8"));
        expect(Object.keys(settings.hooks)).toEqual(expect.arrayContaining(["SessionStart", "SessionEnd"]));
        const doctor = await runClaude(sandbox, ["doctor"]);
        expect(doctor.stdout).toContain("Claude Code doctor");
        expect(doctorInvalidSettings(doctor.stdout)).toEqual([]);
      },
      TIMEOUT_MS,
    );

    it(
      "claude -p calls ctx_status through MCP and ctx's hooks record the session",
      async () => {
        const sandbox = await initializedSandbox(ctxOnPath);
        const toolUseId = "toolu_ctx_status_e2e";
        const turn = await runClaudeTurn({
          sandbox,
          prompt: "What does ctx know about this project?",
          allowedTools: ["mcp__ctx__ctx_status"],
          turns: [{ toolUse: { id: toolUseId, name: "mcp__ctx__ctx_status", input: {} } }, { text: "ctx is set up." }],
        });
        const diagnostics = `exit ${turn.exitCode}\nstdout: ${turn.stdout}\nstderr: ${turn.stderr}`;
        expect(turn.exitCode, diagnostics).toBe(0);
        expect(turn.result, diagnostics).toMatchObject({ is_error: false, num_turns: 2, result: "ctx is set up." });
        expect(turn.problems).toEqual([]);
        expect(turn.unusedTurns).toBe(0);

        const [first, second] = turn.requests;
        expect(turn.requests).toHaveLength(2);
        expect(toolNames(first?.body ?? {})).toContain("mcp__ctx__ctx_status");
        const results = toolResults(second?.body ?? {});
        expect(results).toHaveLength(1);
        expect(results[0]).toMatchObject({ toolUseId, isError: false });
        expect(results[0]?.text).toContain(sandbox.project);
        expect(results[0]?.text).toContain("ctx");
        // The SessionStart hook ran before the tool call, and the MCP server reads the same store.
        const sessionId = turn.result?.session_id ?? "";
        expect(sessionId).not.toBe("");
        expect(results[0]?.text).toContain(sessionId);

        expect(turn.transcriptPath).toBe(
          join(sandbox.home, ".claude", "projects", projectKey(sandbox.project), `${sessionId}.jsonl`),
        );
        expect(existsSync(turn.transcriptPath ?? "")).toBe(true);
        expect(await readFile(turn.transcriptPath ?? "", "utf8")).toContain(toolUseId);

        const status = await runCtx(sandbox, ["status", "--json"]);
        expect(status.exitCode, status.stderr).toBe(0);
        const parsed = JSON.parse(status.stdout) as StatusJson;
        expect(parsed.project).toMatchObject({ root: sandbox.project, initialized: true });
        const session = parsed.sessions.recent.find((recent) => recent.sessionId === sessionId);
        expect(session, status.stdout).toMatchObject({
          source: "startup",
          endReason: "other",
          transcriptPath: turn.transcriptPath,
        });
        expect(Date.parse(session?.startedAt ?? "")).not.toBeNaN();
        expect(Date.parse(session?.endedAt ?? "")).not.toBeNaN();
        // SessionStart recognised its parent as Claude Code and kept its pid (crash detection uses it).
        const record = (await readSessionsSeen(sandbox.project))?.sessions.find((s) => s.sessionId === sessionId);
        expect(record?.pid).toEqual(expect.any(Number));
      },
      TIMEOUT_MS,
    );
  });

  it(
    "the README's plugin steps install the clone's plugin offline, and its MCP server and hooks run from plugin/",
    async () => {
      // No `ctx` on PATH and no ctx init: whatever ctx does here, the plugin does.
      const sandbox = await newSandbox(false);
      const pluginDir = join(REPO_ROOT, PLUGIN_FOLDER);
      const validateRoot = await runClaude(sandbox, ["plugin", "validate", REPO_ROOT, "--strict"]);
      expect(validateRoot.exitCode, validateRoot.stdout + validateRoot.stderr).toBe(0);
      // The root is the marketplace, not a plugin: its CLAUDE.md (for contributors) draws no warning.
      expect(validateRoot.stdout).toContain("Validating marketplace manifest");
      expect(validateRoot.stdout).not.toContain("CLAUDE.md");
      const validate = await runClaude(sandbox, ["plugin", "validate", pluginDir, "--strict"]);
      expect(validate.exitCode, validate.stdout + validate.stderr).toBe(0);
      expect(validate.stdout).toContain("✔ Validation passed");
      for (const event of CTX_HOOK_SPECS.map((spec) => spec.event))
        expect(validate.stdout).toContain(`hooks: ${event}`);
      for (const name of [
        "fork-detect",
        "summarize-all",
        "summarize-from",
        "clear-summaries",
        "context-stats",
        "stats",
        "reindex",
      ]) {
        expect(validate.stdout).toContain(`commands: ctx:${name}`);
      }

      // The README's two steps, with every network route closed: a local source fetches nothing.
      const offline = { env: { HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9", NO_PROXY: "" } };
      const add = await runClaude(sandbox, ["plugin", "marketplace", "add", REPO_ROOT], offline);
      expect(add.exitCode, add.stdout + add.stderr).toBe(0);
      const install = await runClaude(sandbox, ["plugin", "install", "ctx@ctx"], offline);
      expect(install.exitCode, install.stdout + install.stderr).toBe(0);
      expect(install.stdout).toContain("Successfully installed plugin: ctx@ctx");
      const installed = JSON.parse(
        await readFile(join(sandbox.home, ".claude", "plugins", "installed_plugins.json"), "utf8"),
      ) as { plugins: Record<string, { installPath: string }[]> };
      const installPath = installed.plugins["ctx@ctx"]?.[0]?.installPath ?? "";
      expect(installPath.startsWith(join(sandbox.home, ".claude", "plugins", "cache"))).toBe(true);
      expect(existsSync(join(installPath, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))).toBe(true);

      // The `node` on PATH is one that cannot run ctx, as on a machine whose own Node is too old: the plugin runs on
      // the Node that built it.
      const oldNodeDir = join(sandbox.root, "old-node");
      await mkdir(oldNodeDir);
      await writeFile(join(oldNodeDir, "node"), "#!/bin/sh\necho 'v20.0.0: too old for ctx' >&2\nexit 1\n", {
        mode: 0o755,
      });
      const oldNode = { env: { PATH: `${oldNodeDir}${delimiter}${sandbox.env.PATH ?? ""}` } };
      const builtWith = JSON.parse(await readFile(join(pluginDir, ".claude-plugin", "plugin.json"), "utf8")).mcpServers
        .ctx.command as string;
      const list = await runClaude(sandbox, ["mcp", "list"], oldNode);
      expect(mcpServerStatus(list.stdout, "plugin:ctx:ctx"), list.stdout + list.stderr).toBe("✔ Connected");
      // Claude Code 2.1.330 runs a directory marketplace's plugin from its folder in place (the README says so).
      expect(list.stdout).toContain(`${builtWith} ${join(pluginDir, "dist", "ctx.js")} serve`);

      // A scripted turn: the plugin's SessionStart and SessionEnd record the session, its MCP tool answers.
      const tool = "mcp__plugin_ctx_ctx__ctx_status";
      const turn = await runClaudeTurn({
        sandbox,
        prompt: "What does ctx know about this project?",
        allowedTools: [tool],
        turns: [{ toolUse: { id: "toolu_ctx_status_from_plugin", name: tool, input: {} } }, { text: "ctx is set up." }],
        env: oldNode.env,
      });
      const diagnostics = `exit ${turn.exitCode}\nstdout: ${turn.stdout}\nstderr: ${turn.stderr}`;
      expect(turn.exitCode, diagnostics).toBe(0);
      expect(turn.result, diagnostics).toMatchObject({ is_error: false, result: "ctx is set up." });
      const results = toolResults(turn.requests[1]?.body ?? {});
      expect(results[0], `${diagnostics}\n${results[0]?.text}`).toMatchObject({
        toolUseId: "toolu_ctx_status_from_plugin",
        isError: false,
      });
      const sessionId = turn.result?.session_id ?? "";
      expect(results[0]?.text).toContain(sessionId);
      const record = (await readSessionsSeen(sandbox.project))?.sessions.find((s) => s.sessionId === sessionId);
      expect(record, diagnostics).toMatchObject({ sessionId, source: "startup" });
      expect(record?.endedAt, "SessionEnd ran").toEqual(expect.any(String));
    },
    TIMEOUT_MS,
  );

  it(
    "claude doctor does flag a broken hook settings file (control for the check above)",
    async () => {
      const sandbox = await newSandbox();
      const broken = sandbox.project;
      await mkdir(join(broken, ".claude"));
      const hook = { type: "command", command: ["ctx"], args: ["hook", "session-end"] };
      const hooks = { SessionBegin: [{ hooks: [hook] }], SessionEnd: [{ hooks: [hook] }], Stop: [{ matcher: "" }] };
      await writeFile(join(broken, ".claude", "settings.json"), JSON.stringify({ hooks }));
      const doctor = await runClaude(sandbox, ["doctor"]);
      const problems = doctorInvalidSettings(doctor.stdout);
      expect(problems.join("\n")).toContain('Unknown hook event "SessionBegin"');
      expect(problems.join("\n")).toContain("hooks.SessionEnd.0.hooks.0");
      expect(problems.join("\n")).toContain("hooks.Stop.0");
    },
    TIMEOUT_MS,
  );
});

/** Claude Code's folder name for a project under ~/.claude/projects: every non-alphanumeric becomes `-`. */
function projectKey(projectDir: string): string {
  return projectDir.replace(/[^a-zA-Z0-9]/g, "-");
}
