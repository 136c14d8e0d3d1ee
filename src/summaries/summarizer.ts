// summarize(requests) -> summaries, behind one interface for the three providers. `extractive` runs here and
// now; the LLM providers go batch by batch under the daily token cap (each batch's estimate is booked in the
// ledger before it is sent, then settled with the real usage). Whatever an LLM cannot give (cap reached, a
// failed run, an id missing from its answer) is summarised extractively instead, and the result says so.
import type { Config } from "../config/schema.ts";
import { redactText } from "../core/redact/redact.ts";
import { EXTRACTIVE_ALGORITHM, type SummaryRequest, summarizeExtractive } from "../core/summaries/extractive.ts";
import { ledgerDay } from "../core/summaries/ledger.ts";
import {
  buildPromptBatches,
  LLM_ALGORITHM,
  type LlmAnswer,
  parseSummariesReply,
} from "../core/summaries/llm-prompt.ts";
import type { SummaryProviderName } from "../core/summaries/sidecar.ts";
import { describeError } from "../errors.ts";
import { addToLedger, ledgerPath, reserveTokens } from "../store/summaries/ledger-store.ts";
import { createAnthropicClient } from "./anthropic.ts";
import { createClaudeCliClient } from "./claude-cli.ts";
import type { LlmClient } from "./llm-client.ts";

export interface MadeSummary {
  text: string;
  provider: SummaryProviderName;
  model: string | null;
  algorithm: string;
}

export interface SummarizeOutcome {
  /** One per request, in order. */
  summaries: MadeSummary[];
  /** Fallbacks and refusals, for the person (stderr) and the tool result. */
  warnings: string[];
  llmRequests: number;
  /** Messages an LLM provider was asked for but that were summarised extractively. */
  fallbacks: number;
}

export interface SummarizerDeps {
  config: Config["summaries"];
  env: NodeJS.ProcessEnv;
  now: () => Date;
  allowlist: readonly string[];
  /** Overrides config.provider (`--provider`). */
  provider?: SummaryProviderName;
  /** Tests and embedders: a ready client instead of the configured one. */
  client?: LlmClient;
  fetch?: typeof fetch;
  /** The `claude-cli` provider's executable (the bridge passes `bridge.claude.command`); `claude` on PATH otherwise. */
  claudeCommand?: string;
}

export function extractiveSummary(request: SummaryRequest): MadeSummary {
  return { text: summarizeExtractive(request), provider: "extractive", model: null, algorithm: EXTRACTIVE_ALGORITHM };
}

export function createLlmClient(provider: "claude-cli" | "anthropic", deps: SummarizerDeps): LlmClient {
  const common = { model: deps.config.model, timeoutMs: deps.config.timeoutMs, env: deps.env };
  if (provider === "claude-cli") {
    return createClaudeCliClient({
      ...common,
      ...(deps.claudeCommand === undefined ? {} : { command: deps.claudeCommand }),
    });
  }
  return createAnthropicClient({ ...common, ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }) });
}

export async function summarizeRequests(
  requests: readonly SummaryRequest[],
  deps: SummarizerDeps,
): Promise<SummarizeOutcome> {
  const provider = deps.provider ?? deps.config.provider;
  if (provider === "extractive" || requests.length === 0) {
    return { summaries: requests.map(extractiveSummary), warnings: [], llmRequests: 0, fallbacks: 0 };
  }
  // A provider that cannot run at all (no API key) is the person's configuration problem: thrown, not hidden.
  const client = deps.client ?? createLlmClient(provider, deps);
  const outcome: SummarizeOutcome = { summaries: [], warnings: [], llmRequests: 0, fallbacks: 0 };
  let capReached = false;
  for (const batch of buildPromptBatches(requests)) {
    const fallback = (why: string) => {
      outcome.summaries.push(...batch.requests.map(extractiveSummary));
      outcome.fallbacks += batch.requests.length;
      if (why !== "") outcome.warnings.push(why);
    };
    if (capReached) {
      fallback("");
      continue;
    }
    const completion = await completeUnderCap(client, batch.prompt, batch.estimatedTokens, batch.maxOutputTokens, deps);
    if (completion.kind === "cap-reached") {
      capReached = true;
      fallback(`${completion.detail}: the remaining messages were summarised with the extractive provider`);
      continue;
    }
    outcome.llmRequests += 1;
    if (completion.kind === "failed") {
      fallback(`${completion.detail}: ${batch.requests.length} messages summarised extractively`);
      continue;
    }
    const answer = completion.answer;
    let found: Map<string, string>;
    try {
      found = parseSummariesReply(answer.text, batch.ids, client.provider);
    } catch (error) {
      fallback(`${describeError(error)}: ${batch.requests.length} messages summarised extractively`);
      continue;
    }
    let missing = 0;
    for (const [index, request] of batch.requests.entries()) {
      const text = found.get(batch.ids[index] ?? "");
      if (text === undefined) {
        missing += 1;
        outcome.summaries.push(extractiveSummary(request));
        continue;
      }
      // The model may echo something secret-looking from the (already redacted) input: redacted again.
      const safe = redactText(text, { allowlist: deps.allowlist }).text;
      outcome.summaries.push({ text: safe, provider: client.provider, model: client.model, algorithm: LLM_ALGORITHM });
    }
    if (missing > 0) {
      outcome.fallbacks += missing;
      outcome.warnings.push(
        `${client.provider} left out ${missing} of ${batch.requests.length} messages: summarised extractively`,
      );
    }
  }
  return outcome;
}

export type CappedCompletion =
  | { kind: "answered"; answer: LlmAnswer }
  /** `detail` says why, for a warning. */
  | { kind: "cap-reached"; detail: string }
  | { kind: "failed"; detail: string };

/**
 * One LLM request under the daily token cap: the estimate is booked in the ledger before it is sent, then settled
 * with the real usage. The prompt is redacted again on the way out (session text arrives redacted already), so no
 * caller can send a secret.
 */
export async function completeUnderCap(
  client: LlmClient,
  prompt: string,
  estimatedTokens: number,
  maxOutputTokens: number,
  deps: Pick<SummarizerDeps, "config" | "env" | "now" | "allowlist">,
): Promise<CappedCompletion> {
  const path = ledgerPath(deps.env);
  const now = deps.now();
  const booking = {
    day: ledgerDay(now),
    provider: client.provider,
    model: client.model,
    inputTokens: estimatedTokens - maxOutputTokens,
    outputTokens: maxOutputTokens,
  };
  const check = await reserveTokens(path, { ...booking, cap: deps.config.dailyTokenCap }, now);
  if (!check.allowed) {
    return {
      kind: "cap-reached",
      detail:
        `daily token cap reached for LLM summaries (${check.used} of ${check.cap} tokens used today, this request needs ` +
        `about ${check.wanted})`,
    };
  }
  let answer: LlmAnswer;
  try {
    answer = await client.complete(redactText(prompt, { allowlist: deps.allowlist }).text, maxOutputTokens);
  } catch (error) {
    // The booked estimate stays in the ledger: a failed run may still have used tokens.
    return { kind: "failed", detail: `${client.provider} failed (${describeError(error)})` };
  }
  await addToLedger(
    path,
    {
      day: booking.day,
      provider: client.provider,
      model: client.model,
      inputTokens: answer.usage.inputTokens - booking.inputTokens,
      outputTokens: answer.usage.outputTokens - booking.outputTokens,
    },
    now,
  );
  return { kind: "answered", answer };
}
