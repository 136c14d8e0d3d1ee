// The rolling summary of a bridge conversation, made when it rolls over to a new Claude session. By default
// (extractive, or the anthropic provider) messages 6-20 of its history are summarised one by one under the daily
// token cap, the last 5 kept verbatim, older ones folded. With `summaries.provider: claude-cli` everything before
// the last 5 is summarised by one `claude -p` run of `bridge.claude.command` (never a `claude` found on PATH) with
// the one-shot 200-word prompt; if that run cannot be made the summary is extractive. Either way the result is
// appended to the earlier summary.
import type { Config } from "../config/schema.ts";
import {
  assembleHistory,
  composeSummary,
  historyMessages,
  ONE_SHOT_SUMMARY_MAX_TOKENS,
  oneShotSummaryPrompt,
  ROLLING_SUMMARY_POLICY,
  renderOneShot,
  splitForOneShot,
  summaryRequestsFor,
} from "../core/bridge/rolling-summary.ts";
import type { BridgeSession } from "../core/bridge/session.ts";
import { estimateTokens } from "../core/estimate.ts";
import { redactText } from "../core/redact/redact.ts";
import type { SummaryMessage } from "../core/summaries/messages.ts";
import type { LlmClient } from "../summaries/llm-client.ts";
import { completeUnderCap, createLlmClient, summarizeRequests } from "../summaries/summarizer.ts";

export interface RollingSummaryDeps {
  config: Config;
  /** The bridge's child environment (its own settings and secrets left out). */
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
  const warnings: string[] = [];
  if (deps.config.summaries.provider === "claude-cli") {
    const oneShot = await summarizeOneShot(session, messages, deps);
    if (oneShot.summary !== null) return { summary: oneShot.summary, provider: "claude-cli", warnings: [] };
    if (oneShot.warning !== null) warnings.push(`${oneShot.warning}: the summary is extractive`);
  }
  const requests = summaryRequestsFor(messages, ROLLING_SUMMARY_POLICY);
  const outcome = await summarizeRequests(requests, {
    config: deps.config.summaries,
    env: deps.env,
    now: deps.now,
    allowlist: deps.config.redaction.allowlist,
    // claude-cli got its one chance above: what it could not summarise is extractive.
    ...(deps.config.summaries.provider === "claude-cli" ? { provider: "extractive" as const } : {}),
    ...(deps.client === undefined ? {} : { client: deps.client }),
  });
  const summaries = new Map<string, string>();
  requests.forEach((request, index) => {
    const made = outcome.summaries[index];
    if (made !== undefined) summaries.set(request.message.uuid, made.text);
  });
  const assembly = assembleHistory(messages, summaries, ROLLING_SUMMARY_POLICY);
  const providers = new Set(outcome.summaries.map((made) => made.provider));
  return {
    summary: redacted(composeSummary(session.summary, assembly), deps),
    provider: providers.size === 0 ? "none" : [...providers].join("+"),
    warnings: [...warnings, ...outcome.warnings],
  };
}

/** One `claude -p` run over everything before the verbatim tail; null summary (with why) when it was not made. */
async function summarizeOneShot(
  session: BridgeSession,
  messages: readonly SummaryMessage[],
  deps: RollingSummaryDeps,
): Promise<{ summary: string | null; warning: string | null }> {
  const { earlier, recent } = splitForOneShot(messages, ROLLING_SUMMARY_POLICY);
  const prompt = oneShotSummaryPrompt(earlier);
  if (prompt === null) return { summary: null, warning: null };
  const summarizerDeps = {
    config: deps.config.summaries,
    env: deps.env,
    now: deps.now,
    allowlist: deps.config.redaction.allowlist,
    claudeCommand: deps.config.bridge.claude.command,
  };
  const client = deps.client ?? createLlmClient("claude-cli", summarizerDeps);
  const estimate = estimateTokens(prompt) + ONE_SHOT_SUMMARY_MAX_TOKENS;
  const done = await completeUnderCap(client, prompt, estimate, ONE_SHOT_SUMMARY_MAX_TOKENS, summarizerDeps);
  if (done.kind !== "answered") return { summary: null, warning: done.detail };
  if (done.answer.text.trim() === "") return { summary: null, warning: `${client.provider} answered nothing` };
  const stretch = renderOneShot(done.answer.text, earlier.length, recent);
  return { summary: redacted(composeSummary(session.summary, { text: stretch }), deps), warning: null };
}

function redacted(text: string, deps: RollingSummaryDeps): string {
  return redactText(text, { allowlist: deps.config.redaction.allowlist }).text;
}
