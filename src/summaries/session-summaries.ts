// One session's summaries, made when needed: read the transcript (redacted), reuse what the sidecar holds,
// summarise what is missing or stale (or everything from `from` on) with the chosen provider, each message
// knowing its neighbours, and store the result. Then assemble within the token budget when asked.
import { existsSync } from "node:fs";
import type { Config } from "../config/schema.ts";
import { type Assembly, type AssemblyPolicy, assembleContext } from "../core/summaries/assemble.ts";
import { neighboursOf, type SummaryMessage } from "../core/summaries/messages.ts";
import {
  messagesToSummarize,
  SIDECAR_VERSION,
  type SummaryProviderName,
  type SummaryRecord,
} from "../core/summaries/sidecar.ts";
import { CtxError } from "../errors.ts";
import type { SessionRef } from "../store/context/operations.ts";
import { readSidecar, sidecarPath, updateSidecar } from "../store/summaries/sidecar-store.ts";
import { readSessionMessages } from "./session-source.ts";
import { type SummarizerDeps, summarizeRequests } from "./summarizer.ts";

export interface SessionSummariesOptions {
  projectRoot: string;
  session: SessionRef;
  config: Config;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  provider?: SummaryProviderName;
  /** Regenerate from this message uuid on (inclusive). */
  from?: string;
  client?: SummarizerDeps["client"];
}

export interface SessionSummaries {
  session: SessionRef;
  messages: SummaryMessage[];
  /** Real context size of the last main-chain reply (transcript usage), or null. */
  contextTokens: number | null;
  records: ReadonlyMap<string, SummaryRecord>;
  provider: SummaryProviderName;
  made: number;
  reused: number;
  llmRequests: number;
  fallbacks: number;
  warnings: string[];
  redactions: number;
  sidecarPath: string;
  /** Where a damaged sidecar was moved before regenerating; null when none was. */
  movedAside: string | null;
}

export async function ensureSessionSummaries(options: SessionSummariesOptions): Promise<SessionSummaries> {
  const { projectRoot, session, config } = options;
  const allowlist = config.redaction.allowlist;
  if (!existsSync(session.transcriptPath)) {
    throw new CtxError(
      "NOT_FOUND",
      `the transcript of session ${session.sessionId} is gone (${session.transcriptPath})`,
      {
        hint: "Claude Code deletes transcripts after cleanupPeriodDays (30 by default); summaries need the transcript",
      },
    );
  }
  const conversation = await readSessionMessages(session.transcriptPath, allowlist);
  const { messages } = conversation;
  let fromIndex: number | null = null;
  if (options.from !== undefined) {
    fromIndex = messages.findIndex((message) => message.uuid === options.from);
    if (fromIndex < 0) {
      throw new CtxError("NOT_FOUND", `no message ${options.from} in session ${session.sessionId}`, {
        hint: "pass the uuid of a user or assistant message of that transcript (its first line's uuid)",
      });
    }
  }
  const provider = options.provider ?? config.summaries.provider;
  const read = await readSidecar(projectRoot, session.sessionId, options.now());
  const wanted = messagesToSummarize(messages, read.sidecar, { fromIndex, provider });
  const records = new Map<string, SummaryRecord>(Object.entries(read.sidecar?.entries ?? {}));
  const result: SessionSummaries = {
    session,
    messages,
    contextTokens: conversation.contextTokens,
    records,
    provider,
    made: wanted.length,
    reused: messages.length - wanted.length,
    llmRequests: 0,
    fallbacks: 0,
    warnings: [],
    redactions: conversation.redactions,
    sidecarPath: sidecarPath(projectRoot, session.sessionId),
    movedAside: read.movedAside,
  };
  if (read.movedAside !== null) {
    result.warnings.push(`the summaries file did not verify; it was moved to ${read.movedAside} and regenerated`);
  }
  if (wanted.length === 0) return result;

  const requests = wanted.map((index) => ({
    message: messages[index] as SummaryMessage,
    ...neighboursOf(messages, index),
  }));
  const outcome = await summarizeRequests(requests, {
    config: config.summaries,
    env: options.env,
    now: options.now,
    allowlist,
    provider,
    ...(options.client === undefined ? {} : { client: options.client }),
  });
  const createdAt = options.now().toISOString();
  const fresh: Record<string, SummaryRecord> = {};
  for (const [position, request] of requests.entries()) {
    const made = outcome.summaries[position];
    if (made === undefined) continue;
    fresh[request.message.uuid] = {
      summary: made.text,
      provider: made.provider,
      model: made.model,
      createdAt,
      algorithm: made.algorithm,
      sourceChars: request.message.text.length,
    };
  }
  const written = await updateSidecar(
    projectRoot,
    session.sessionId,
    (current) => ({
      version: SIDECAR_VERSION,
      sessionId: session.sessionId,
      entries: { ...(current?.entries ?? {}), ...fresh },
    }),
    options.now(),
  );
  for (const [uuid, record] of Object.entries(fresh)) records.set(uuid, record);
  result.llmRequests = outcome.llmRequests;
  result.fallbacks = outcome.fallbacks;
  result.warnings.push(...outcome.warnings);
  if (written.movedAside !== null && result.movedAside === null) result.movedAside = written.movedAside;
  return result;
}

export function policyFromConfig(summaries: Config["summaries"]): AssemblyPolicy {
  return {
    recentMessages: summaries.recentMessages,
    middleMessages: summaries.middleMessages,
    budgetTokens: summaries.budgetTokens,
    aggregateTokens: summaries.aggregateTokens,
  };
}

export function assembleSession(summaries: SessionSummaries, policy: AssemblyPolicy): Assembly {
  return assembleContext({
    messages: summaries.messages,
    summaryOf: (message) => summaries.records.get(message.uuid)?.summary,
    policy,
  });
}
