// The rolling summary of a bridge conversation, made when it rolls over to a new Claude session: messages 6-20 of
// its history summarised by the configured summaries provider (under the daily token cap; extractive when none
// or when the cap is reached), the last 5 verbatim, older ones folded, appended to the earlier summary.
import type { Config } from "../config/schema.ts";
import {
  assembleHistory,
  composeSummary,
  historyMessages,
  ROLLING_SUMMARY_POLICY,
  summaryRequestsFor,
} from "../core/bridge/rolling-summary.ts";
import type { BridgeSession } from "../core/bridge/session.ts";
import { redactText } from "../core/redact/redact.ts";
import type { LlmClient } from "../summaries/llm-client.ts";
import { summarizeRequests } from "../summaries/summarizer.ts";

export interface RollingSummaryDeps {
  config: Config;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** Tests: a ready LLM client instead of the configured provider's. */
  client?: LlmClient;
}

export interface RollingSummary {
  summary: string;
  provider: string;
  warnings: string[];
}

export async function makeRollingSummary(session: BridgeSession, deps: RollingSummaryDeps): Promise<RollingSummary> {
  const messages = historyMessages(session);
  const requests = summaryRequestsFor(messages, ROLLING_SUMMARY_POLICY);
  const outcome = await summarizeRequests(requests, {
    config: deps.config.summaries,
    env: deps.env,
    now: deps.now,
    allowlist: deps.config.redaction.allowlist,
    ...(deps.client === undefined ? {} : { client: deps.client }),
  });
  const summaries = new Map<string, string>();
  requests.forEach((request, index) => {
    const made = outcome.summaries[index];
    if (made !== undefined) summaries.set(request.message.uuid, made.text);
  });
  const assembly = assembleHistory(messages, summaries, ROLLING_SUMMARY_POLICY);
  const summary = redactText(composeSummary(session.summary, assembly), {
    allowlist: deps.config.redaction.allowlist,
  }).text;
  const providers = new Set(outcome.summaries.map((made) => made.provider));
  return {
    summary,
    provider: providers.size === 0 ? "none" : [...providers].join("+"),
    warnings: outcome.warnings,
  };
}
