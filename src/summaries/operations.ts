// The summaries operations shared by the CLI and the MCP tools, so both always do the same thing:
// summarise a session (lazily, or again from a message on) and measure its hierarchical assembly.

import * as z from "zod/mini";
import type { Config } from "../config/schema.ts";
import { type Assembly, type AssemblyPolicy, BRIDGE_PRESET } from "../core/summaries/assemble.ts";
import { type SummaryProviderName, SummaryProviderNameSchema } from "../core/summaries/sidecar.ts";
import { buildContextStats, type ContextStats, ContextStatsSchema } from "../core/summaries/stats.ts";
import type { SessionRef } from "../store/context/operations.ts";
import type { LlmClient } from "./llm-client.ts";
import {
  assembleSession,
  ensureSessionSummaries,
  policyFromConfig,
  type SessionSummaries,
} from "./session-summaries.ts";

export interface SummariesOpsDeps {
  projectRoot: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  client?: LlmClient;
}

export type AssemblyPresetChoice = "smart" | "bridge";

export function policyFor(config: Config, preset: AssemblyPresetChoice = "smart"): AssemblyPolicy {
  // `smart` is the configured layout (defaults: the Smart Context sizes); `bridge` the chat bridge's fixed policy.
  return preset === "bridge" ? BRIDGE_PRESET : policyFromConfig(config.summaries);
}

/** `ctx summaries clear --json` and the ctx_clear_summaries result: the summaries files deleted. */
export const SummariesClearReportSchema = z.object({ removed: z.array(z.string()) });
export type SummariesClearReport = z.infer<typeof SummariesClearReportSchema>;

export interface SummarizeResult {
  summaries: SessionSummaries;
  assembly: Assembly;
  stats: ContextStats;
}

/** The `ctx summarize --json` output and the ctx_summarize result. */
export const SummarizeReportSchema = z.object({
  sessionId: z.string(),
  transcriptPath: z.string(),
  provider: SummaryProviderNameSchema,
  messages: z.int(),
  made: z.int(),
  reused: z.int(),
  llmRequests: z.int(),
  /** Messages an LLM provider was asked for but that were summarised extractively (cap, failure). */
  fallbacks: z.int(),
  warnings: z.array(z.string()),
  redactions: z.int(),
  sidecar: z.string(),
  /** Where a damaged sidecar was moved before regenerating; null when none was. */
  movedAside: z.nullable(z.string()),
  stats: ContextStatsSchema,
});
export type SummarizeReport = z.infer<typeof SummarizeReportSchema>;

export function summarizeReportOf(result: SummarizeResult): SummarizeReport {
  const s = result.summaries;
  return {
    sessionId: s.session.sessionId,
    transcriptPath: s.session.transcriptPath,
    provider: s.provider,
    messages: s.messages.length,
    made: s.made,
    reused: s.reused,
    llmRequests: s.llmRequests,
    fallbacks: s.fallbacks,
    warnings: s.warnings,
    redactions: s.redactions,
    sidecar: s.sidecarPath,
    movedAside: s.movedAside,
    stats: result.stats,
  };
}

export async function summarizeSession(
  deps: SummariesOpsDeps,
  session: SessionRef,
  options: { from?: string; provider?: SummaryProviderName; preset?: AssemblyPresetChoice } = {},
): Promise<SummarizeResult> {
  const summaries = await ensureSessionSummaries({
    projectRoot: deps.projectRoot,
    session,
    config: deps.config,
    env: deps.env,
    now: deps.now,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(deps.client === undefined ? {} : { client: deps.client }),
  });
  const assembly = assembleSession(summaries, policyFor(deps.config, options.preset));
  return { summaries, assembly, stats: statsOf(summaries, assembly) };
}

/**
 * The stats of the session's assembly. Missing summaries are made with the extractive provider (fast, free,
 * stored); LLM summaries are made only when asked (`ctx summarize`), since they cost time and tokens.
 */
export async function contextStats(
  deps: SummariesOpsDeps,
  session: SessionRef,
  preset: AssemblyPresetChoice = "smart",
): Promise<SummarizeResult> {
  const summaries = await ensureSessionSummaries({
    projectRoot: deps.projectRoot,
    session,
    config: { ...deps.config, summaries: { ...deps.config.summaries, provider: "extractive" } },
    env: deps.env,
    now: deps.now,
  });
  const assembly = assembleSession(summaries, policyFor(deps.config, preset));
  return { summaries, assembly, stats: statsOf(summaries, assembly) };
}

function statsOf(summaries: SessionSummaries, assembly: Assembly): ContextStats {
  return buildContextStats({
    sessionId: summaries.session.sessionId,
    assembly,
    messages: summaries.messages.length,
    exactTokenMessages: summaries.messages.filter((message) => message.exactTokens !== null).length,
    contextTokens: summaries.contextTokens,
    providers: summaries.messages.map((message) => summaries.records.get(message.uuid)?.provider ?? "none"),
  });
}
