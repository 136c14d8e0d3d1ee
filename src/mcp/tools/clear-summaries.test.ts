import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  closeClients,
  connectClient,
  createEmptyProject,
  expectSchemaRejection,
  type McpTestProject,
  recordSession,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import {
  renderSummariesCommand,
  SUMMARIES_COMMAND_NAMES,
  summariesCommandInstructions,
} from "../../core/setup/init/summaries-commands.ts";
import { sidecarPath } from "../../store/summaries/sidecar-store.ts";
import { SummariesClearReportSchema } from "../../summaries/operations.ts";

let test: McpTestProject;
beforeEach(() => {
  test = createEmptyProject();
});
afterEach(closeClients);
const deps = (sessionId?: string) => ({
  ...testDeps(test.project, { env: { CTX_HOME: join(test.project, "..", "home") } }),
  ...(sessionId === undefined ? {} : { sessionId }),
});

describe("ctx_clear_summaries", () => {
  it("clears this session's summaries, or every session's with all", async () => {
    await recordSession(test, "mine");
    await recordSession(test, "other");
    const client = await connectClient(deps("mine"));
    for (const session of ["mine", "other"]) {
      expect((await client.callTool({ name: "ctx_summarize", arguments: { session } })).isError).toBeFalsy();
    }
    const one = await client.callTool({ name: "ctx_clear_summaries", arguments: {} });
    expect(SummariesClearReportSchema.parse(one.structuredContent).removed).toEqual([
      sidecarPath(test.project, "mine"),
    ]);
    expect(existsSync(sidecarPath(test.project, "other"))).toBe(true);
    const all = await client.callTool({ name: "ctx_clear_summaries", arguments: { all: true } });
    expect(SummariesClearReportSchema.parse(all.structuredContent).removed).toEqual([
      sidecarPath(test.project, "other"),
    ]);
    expect(textOf(await client.callTool({ name: "ctx_clear_summaries", arguments: { all: true } }))).toBe(
      "ctx: no stored summaries to clear.",
    );
  });

  it("is an isError result for a session that does not exist", async () => {
    const client = await connectClient(deps());
    const result = await client.callTool({ name: "ctx_clear_summaries", arguments: { session: "no-such-session" } });
    expect(result.isError).toBe(true);
  });

  it("rejects a non-boolean all", async () => {
    const client = await connectClient(deps());
    await expectSchemaRejection(client, "ctx_clear_summaries", { all: "yes" }, "all");
  });
});

describe("the Smart Context slash commands", () => {
  it("are MCP prompts with the same steps as the command files, which the plugin ships", async () => {
    const client = await connectClient(deps());
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining([...SUMMARIES_COMMAND_NAMES]));
    for (const name of SUMMARIES_COMMAND_NAMES) {
      const got = await client.getPrompt({ name, arguments: { args: "abc-123" } });
      const text = got.messages[0]?.content.type === "text" ? got.messages[0].content.text : "";
      expect(text).toBe(summariesCommandInstructions(name, "abc-123"));
      const file = renderSummariesCommand(name);
      expect(file).toContain(summariesCommandInstructions(name, "$ARGUMENTS"));
      expect(readFileSync(join("plugin", "commands", `${name}.md`), "utf8")).toBe(file);
    }
    const from = summariesCommandInstructions("summarize-from", "abc-123");
    expect(from).toContain("The message to start from: abc-123");
    expect(from).toContain("`from` set to that uuid");
    expect(renderSummariesCommand("clear-summaries")).toMatch(
      /allowed-tools: mcp__ctx__ctx_clear_summaries, mcp__plugin_ctx_ctx__ctx_clear_summaries\n/,
    );
  });
});
