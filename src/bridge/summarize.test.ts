import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config/defaults.ts";
import { ONE_SHOT_SUMMARY_INSTRUCTIONS } from "../core/bridge/rolling-summary.ts";
import { appendHistory, historyEntry, newBridgeSession } from "../core/bridge/session.ts";
import type { LlmClient } from "../summaries/llm-client.ts";
import { makeRollingSummary } from "./summarize.ts";

const at = new Date("2026-01-02T03:04:05Z");
const identity = { key: "dm:7", userId: "7", username: "ann", channelId: null, channelName: null };

/** A conversation of `exchanges` prompts and answers, numbered so each message can be found. */
function conversation(exchanges: number) {
  const entries = [];
  for (let i = 1; i <= exchanges; i += 1) {
    entries.push(historyEntry("user", `question ${i}`, at), historyEntry("assistant", `answer ${i}`, at));
  }
  return { ...appendHistory(newBridgeSession(identity, at), entries), summary: "Earlier: the person likes tabs." };
}

function deps(client: LlmClient) {
  const config = defaultConfig();
  config.summaries.provider = "claude-cli";
  const home = mkdtempSync(join(tmpdir(), "ctx-rolling-summary-"));
  return { config, env: { HOME: home, CTX_HOME: join(home, ".ctx") }, now: () => at, client };
}

describe("makeRollingSummary with summaries.provider claude-cli", () => {
  it("summarises everything before the last 5 messages in one run with the one-shot prompt", async () => {
    const prompts: string[] = [];
    const client: LlmClient = {
      provider: "claude-cli",
      model: "haiku",
      complete: async (prompt, maxOutputTokens) => {
        prompts.push(prompt);
        expect(maxOutputTokens).toBeGreaterThanOrEqual(300);
        return {
          text: "The person asked six questions about the parser.",
          usage: { inputTokens: 50, outputTokens: 10 },
        };
      },
    };
    const made = await makeRollingSummary(conversation(8), deps(client));
    expect(prompts).toHaveLength(1);
    expect(prompts[0]?.startsWith(ONE_SHOT_SUMMARY_INSTRUCTIONS)).toBe(true);
    expect(prompts[0]).toContain("[user] question 1");
    expect(prompts[0]).toContain("[assistant] answer 5");
    // The last 5 messages (answer 6 … answer 8) stay verbatim, out of the prompt.
    expect(prompts[0]).not.toContain("question 7");
    expect(made.provider).toBe("claude-cli");
    expect(made.warnings).toEqual([]);
    expect(made.summary).toContain("Earlier: the person likes tabs.");
    expect(made.summary).toContain("## Earlier conversation (11 messages, summarised)");
    expect(made.summary).toContain("The person asked six questions about the parser.");
    expect(made.summary).toContain("[user] question 8");
  });

  it("falls back to the extractive summary, with a warning, when the run fails", async () => {
    const client: LlmClient = {
      provider: "claude-cli",
      model: "haiku",
      complete: async () => {
        throw new Error("claude is not logged in");
      },
    };
    const made = await makeRollingSummary(conversation(8), deps(client));
    expect(made.provider).toBe("extractive");
    expect(made.warnings).toEqual(["claude-cli failed (claude is not logged in): the summary is extractive"]);
    expect(made.summary).toContain("question 8");
  });
});
