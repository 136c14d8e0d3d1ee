// One headless Claude Code run against the scripted Messages API mock: `claude -p <prompt> --output-format
// json` in a sandbox, returning the parsed result, what reached the "model", and where the transcript went.
import { type ClaudeJsonResult, findTranscript, parseJsonResult } from "./claude-output.ts";
import {
  type CapturedRequest,
  type MockAnthropic,
  type MockAnthropicOptions,
  type MockTurnSpec,
  startMockAnthropic,
} from "./mock-anthropic.ts";
import { type ProcessResult, runClaude, type Sandbox } from "./sandbox.ts";

export interface ClaudeTurnOptions {
  sandbox: Sandbox;
  prompt: string;
  /** The model's replies to the main conversation, in order. */
  turns: MockTurnSpec[];
  /** Passed as `--allowedTools`, e.g. `["mcp__ctx__ctx_status"]`. */
  allowedTools?: string[];
  /** Extra CLI arguments, e.g. `["--resume", id]` or `["--debug-file", path]`. */
  args?: string[];
  /** Extra environment for the CLI (undefined removes a variable). */
  env?: Record<string, string | undefined>;
  /** Default: the sandbox's project. */
  cwd?: string;
  /** Default 90 s. */
  timeoutMs?: number;
  /** Reuse a running mock (e.g. across `--resume` runs); `turns` are appended to its script. Not closed. */
  mock?: MockAnthropic;
  /** Options for the mock started for this run (ignored with `mock`). */
  mockOptions?: Omit<MockAnthropicOptions, "turns">;
}

export interface ClaudeTurnResult extends ProcessResult {
  /** The `--output-format json` result; undefined when stdout held none. */
  result: ClaudeJsonResult | undefined;
  /** The main-conversation requests of this run, in order. */
  requests: CapturedRequest[];
  /** Every request of this run, probes and side requests included. */
  allRequests: CapturedRequest[];
  /** The mock's complaints (unknown endpoints, requests past the script). A passing turn has none. */
  problems: string[];
  /** Turns of this run's script that were never requested. */
  unusedTurns: number;
  transcriptPath: string | undefined;
}

export async function runClaudeTurn(options: ClaudeTurnOptions): Promise<ClaudeTurnResult> {
  const mock = options.mock ?? (await startMockAnthropic({ ...options.mockOptions }));
  const firstRequest = mock.requests.length;
  const firstProblem = mock.problems.length;
  mock.enqueue(...options.turns);
  try {
    const args = ["-p", options.prompt, "--output-format", "json"];
    if (options.allowedTools !== undefined && options.allowedTools.length > 0) {
      args.push("--allowedTools", options.allowedTools.join(","));
    }
    args.push(...(options.args ?? []));
    const run = await runClaude(options.sandbox, args, {
      env: {
        ANTHROPIC_BASE_URL: mock.url,
        ANTHROPIC_API_KEY: "test-key",
        // Otherwise MCP tools hide behind a tool-search tool and never appear in `tools`.
        ENABLE_TOOL_SEARCH: "false",
        ...options.env,
      },
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    const result = parseJsonResult(run.stdout);
    const allRequests = mock.requests.slice(firstRequest);
    return {
      ...run,
      result,
      requests: allRequests.filter((request) => request.kind === "main"),
      allRequests,
      problems: mock.problems.slice(firstProblem),
      unusedTurns: mock.pendingTurns(),
      transcriptPath: result === undefined ? undefined : await findTranscript(options.sandbox.home, result.session_id),
    };
  } finally {
    if (options.mock === undefined) await mock.close();
  }
}
