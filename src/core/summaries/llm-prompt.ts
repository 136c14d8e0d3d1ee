// What the LLM providers send and how their answers are read, pure. Messages go in batches, each with the
// messages around it (Smart Context: a user message with the assistant replies before and after it, a reply
// with the person's prompts around it), and the model answers one JSON object keyed by the batch ids.
import * as z from "zod/mini";
import { CtxError } from "../../errors.ts";
import { estimateTokens } from "../estimate.ts";
import { truncateText } from "../transcript/text.ts";
import type { SummaryRequest } from "./extractive.ts";

export const LLM_ALGORITHM = "llm-batch-1";
const MESSAGE_CHARS = 6_000;
const CONTEXT_CHARS = 600;
const BATCH_MAX_MESSAGES = 20;
const BATCH_MAX_CHARS = 40_000;
/** The answer's token allowance per message in a batch (a summary is a few sentences). */
export const OUTPUT_TOKENS_PER_MESSAGE = 150;

export interface PromptBatch {
  /** Batch-local ids (m1, m2, …) in the order of `requests`. */
  ids: string[];
  requests: SummaryRequest[];
  prompt: string;
  /** What the ledger reserves before sending: the prompt's estimate plus the answer's allowance. */
  estimatedTokens: number;
  maxOutputTokens: number;
}

const INSTRUCTIONS = [
  "You summarise messages of a coding conversation between a person and Claude Code, so that a later session",
  "can continue the work from the summaries alone. For each message marked <message id=…>, write a summary of",
  "about a quarter of its length (at most 4 sentences). Keep: what was asked or decided, file paths, identifiers,",
  "commands, error messages and numbers, exactly as written. Use the <before>/<after> context only to understand",
  "what the message refers to; do not summarise the context itself. Reply with ONE JSON object and nothing else:",
  '{"summaries": {"<id>": "<summary>", …}} with every id.',
].join("\n");

export function buildPromptBatches(requests: readonly SummaryRequest[]): PromptBatch[] {
  const batches: PromptBatch[] = [];
  let current: SummaryRequest[] = [];
  let chars = 0;
  for (const request of requests) {
    const size = Math.min(request.message.text.length, MESSAGE_CHARS) + 2 * CONTEXT_CHARS;
    if (current.length > 0 && (current.length >= BATCH_MAX_MESSAGES || chars + size > BATCH_MAX_CHARS)) {
      batches.push(buildBatch(current));
      current = [];
      chars = 0;
    }
    current.push(request);
    chars += size;
  }
  if (current.length > 0) batches.push(buildBatch(current));
  return batches;
}

function buildBatch(requests: SummaryRequest[]): PromptBatch {
  const ids = requests.map((_, index) => `m${index + 1}`);
  const blocks = requests.map((request, index) => {
    const context = (label: string, neighbour: SummaryRequest["before"]) =>
      neighbour === null
        ? ""
        : `<${label} role="${neighbour.role}">${truncateText(neighbour.text, CONTEXT_CHARS)}</${label}>\n`;
    return (
      context("before", request.before) +
      `<message id="${ids[index]}" role="${request.message.role}" kind="${request.message.kind}">\n` +
      `${truncateText(request.message.text, MESSAGE_CHARS)}\n</message>\n` +
      context("after", request.after)
    );
  });
  const prompt = `${INSTRUCTIONS}\n\n${blocks.join("\n")}`;
  const maxOutputTokens = Math.max(512, requests.length * OUTPUT_TOKENS_PER_MESSAGE);
  return { ids, requests, prompt, estimatedTokens: estimateTokens(prompt) + maxOutputTokens, maxOutputTokens };
}

const SummariesReplySchema = z.object({ summaries: z.record(z.string(), z.string()) });

/** The summaries in a model's answer, by batch id; PROVIDER_FAILED when the answer is not the JSON asked for. */
export function parseSummariesReply(text: string, ids: readonly string[], provider: string): Map<string, string> {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  let value: unknown = null;
  if (start >= 0 && end > start) {
    try {
      value = JSON.parse(text.slice(start, end + 1));
    } catch {
      value = null;
    }
  }
  const parsed = SummariesReplySchema.safeParse(value);
  if (!parsed.success) {
    throw new CtxError(
      "PROVIDER_FAILED",
      `${provider} did not answer with the summaries JSON: ${truncateText(text, 200)}`,
      {
        hint: "try again, or use --provider extractive",
      },
    );
  }
  const found = new Map<string, string>();
  for (const id of ids) {
    const summary = parsed.data.summaries[id];
    if (typeof summary === "string" && summary.trim() !== "") found.set(id, summary.trim());
  }
  return found;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmAnswer {
  text: string;
  usage: LlmUsage;
}

const CountSchema = z.optional(z.nullable(z.number()));
const UsageShape = z.looseObject({
  input_tokens: CountSchema,
  cache_creation_input_tokens: CountSchema,
  cache_read_input_tokens: CountSchema,
  output_tokens: CountSchema,
});

/** Claude Code's `-p --output-format json` result message (docs/claude-code-facts.md "Headless runs"). */
export const ClaudeCliResultSchema = z.looseObject({
  type: z.literal("result"),
  subtype: z.optional(z.string()),
  is_error: z.boolean(),
  result: z.optional(z.string()),
  usage: z.optional(UsageShape),
  total_cost_usd: z.optional(z.number()),
});

export function parseClaudeCliOutput(stdout: string): LlmAnswer {
  let value: unknown;
  try {
    value = JSON.parse(stdout.trim());
  } catch {
    throw new CtxError(
      "PROVIDER_FAILED",
      `claude -p printed something that is not JSON: ${truncateText(stdout.trim(), 200)}`,
      {
        hint: "check that `claude` on PATH is Claude Code and that it is logged in (`claude -p hello`)",
      },
    );
  }
  const parsed = ClaudeCliResultSchema.safeParse(value);
  if (!parsed.success) {
    throw new CtxError("PROVIDER_FAILED", "claude -p answered JSON without a result message", {
      hint: "a Claude Code release may have changed its output; use --provider extractive meanwhile",
    });
  }
  const result = parsed.data;
  if (result.is_error || result.result === undefined) {
    throw new CtxError(
      "PROVIDER_FAILED",
      `claude -p reported an error (${result.subtype ?? "error"}): ${result.result ?? ""}`.trim(),
      {
        hint: "run `claude -p hello` to see whether Claude Code works here (login, network, model name)",
      },
    );
  }
  return { text: result.result, usage: usageOf(result.usage) };
}

/** The Messages API response (`POST /v1/messages`). */
export const MessagesResponseSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.optional(z.string()) })),
  usage: z.optional(UsageShape),
  stop_reason: z.optional(z.nullable(z.string())),
});

export function parseMessagesResponse(value: unknown): LlmAnswer {
  const parsed = MessagesResponseSchema.safeParse(value);
  if (!parsed.success) {
    throw new CtxError("PROVIDER_FAILED", "the Messages API answered without content", {
      hint: "check ANTHROPIC_BASE_URL points at the Anthropic API",
    });
  }
  const text = parsed.data.content
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("");
  return { text, usage: usageOf(parsed.data.usage) };
}

function usageOf(usage: z.infer<typeof UsageShape> | undefined): LlmUsage {
  return {
    inputTokens:
      (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0),
    outputTokens: usage?.output_tokens ?? 0,
  };
}
