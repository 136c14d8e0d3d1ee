// /fork-detect inside the real Claude Code CLI (pinned npm release, offline): past sessions sit in the
// sandbox's ~/.claude/projects, a scripted turn calls mcp__ctx__ctx_fork_detect, and the ranked sessions with
// their fork commands reach the model. Skips with a reason when the CLI cannot be installed, unless CI is set.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeSampleClaudeDir } from "../helpers/sample-claude-dir.ts";
import { CLAUDE_CODE_VERSION, ensureClaudeCli } from "./harness/claude-cli.ts";
import { runClaudeTurn } from "./harness/claude-turn.ts";
import { toolResults } from "./harness/messages-api.ts";
import { approveProjectMcpServers, createSandbox, runCtx, type Sandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`claude-code-fork-detect.test.ts skipped: ${cli.skipReason}\n`);

const TIMEOUT_MS = 90_000;
const PHOENIX = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
const sandboxes: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

describe.skipIf(claudeBin === undefined)(`/fork-detect in Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it(
    "a turn calls ctx_fork_detect and the ranked sessions with fork commands reach the model",
    async () => {
      const sandbox = await createSandbox({ claudeBin });
      sandboxes.push(sandbox);
      writeSampleClaudeDir(join(sandbox.home, ".claude"));
      const init = await runCtx(sandbox, ["init"]);
      expect(init.exitCode, init.stderr).toBe(0);
      await approveProjectMcpServers(sandbox);

      const toolUseId = "toolu_ctx_fork_detect_e2e";
      const turn = await runClaudeTurn({
        sandbox,
        prompt: "/fork-detect start the phoenix server in the background",
        allowedTools: ["mcp__ctx__ctx_fork_detect"],
        turns: [
          {
            toolUse: {
              id: toolUseId,
              name: "mcp__ctx__ctx_fork_detect",
              input: { query: "start the phoenix server in the background" },
            },
          },
          { text: "Fork the phoenix session." },
        ],
      });
      const diagnostics = `exit ${turn.exitCode}\nstdout: ${turn.stdout}\nstderr: ${turn.stderr}`;
      expect(turn.exitCode, diagnostics).toBe(0);
      expect(turn.problems).toEqual([]);
      // The slash command's steps reached the model as the prompt.
      expect(JSON.stringify(turn.requests[0]?.body ?? {})).toContain("AskUserQuestion");
      const results = toolResults(turn.requests[1]?.body ?? {});
      expect(results, diagnostics).toHaveLength(1);
      expect(results[0]).toMatchObject({ toolUseId, isError: false });
      // Claude Code 2.1.330 hands the model the tool's structured result (JSON) when the tool declares an
      // output schema, so that is what must carry the ranked sessions and their fork commands.
      const output = JSON.parse(results[0]?.text ?? "{}") as {
        query?: string;
        results?: { sessionId: string; topic: string; forkCommand: string }[];
      };
      expect(output.query).toBe("start the phoenix server in the background");
      expect(output.results?.[0]).toMatchObject({
        sessionId: PHOENIX,
        topic: "start phoenix in background",
        forkCommand: `cd /home/marco/projects/spotter && claude --resume ${PHOENIX} --fork-session`,
      });
    },
    TIMEOUT_MS,
  );
});
