// What the summaries tools share: the session a call is about (named, else the one that spawned the server,
// else the newest recorded), the ops deps, and the JSON shapes of their results.
import * as z from "zod/mini";
import type { SessionRef } from "../../store/context/operations.ts";
import type { SummariesOpsDeps } from "../../summaries/operations.ts";
import { resolveSummarySession } from "../../summaries/session-source.ts";
import type { ServerDeps } from "../deps.ts";
import { resolveToolSession } from "./context-tools.ts";

export function summariesOpsDeps(deps: ServerDeps): SummariesOpsDeps {
  return { projectRoot: deps.projectRoot, config: deps.config, env: deps.env ?? process.env, now: deps.now };
}

export async function resolveSummariesToolSession(deps: ServerDeps, session: string | undefined): Promise<SessionRef> {
  if (session === undefined) return resolveToolSession(deps);
  const ops = summariesOpsDeps(deps);
  return resolveSummarySession(
    { projectRoot: deps.projectRoot, config: deps.config, cwd: deps.projectRoot, env: ops.env },
    session,
  );
}

const LayerSchema = z.object({ messages: z.int(), tokens: z.int() });

export const ContextStatsOutputSchema = z.object({
  sessionId: z.string(),
  messages: z.int(),
  exactTokenMessages: z.int(),
  originalTokens: z.int(),
  assembledTokens: z.int(),
  budgetTokens: z.int(),
  compressionRatio: z.number(),
  contextTokens: z.nullable(z.int()),
  layers: z.object({ aggregate: LayerSchema, summarized: LayerSchema, recent: LayerSchema }),
  summaries: z.object({ stored: z.int(), byProvider: z.record(z.string(), z.int()) }),
});
export type ContextStatsOutput = z.infer<typeof ContextStatsOutputSchema>;

export const SummarizeOutputSchema = z.object({
  sessionId: z.string(),
  provider: z.enum(["extractive", "claude-cli", "anthropic"]),
  messages: z.int(),
  made: z.int(),
  reused: z.int(),
  llmRequests: z.int(),
  fallbacks: z.int(),
  warnings: z.array(z.string()),
  sidecar: z.string(),
  stats: ContextStatsOutputSchema,
});
export type SummarizeOutput = z.infer<typeof SummarizeOutputSchema>;

export const SessionArgument = z
  .optional(z.string().check(z.minLength(1), z.maxLength(4096)))
  .check(z.describe("Session id or transcript path (default: this session, else the newest recorded here)."));
