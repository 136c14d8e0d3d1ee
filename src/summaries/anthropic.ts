// The `anthropic` summary provider: the Messages API over fetch (POST {ANTHROPIC_BASE_URL}/v1/messages) with
// ANTHROPIC_API_KEY. No SDK: one request shape, parsed by a schema (core/summaries/llm-prompt.ts).
import { type LlmAnswer, parseMessagesResponse } from "../core/summaries/llm-prompt.ts";
import { CtxError } from "../errors.ts";
import type { LlmClient } from "./llm-client.ts";

export const ANTHROPIC_VERSION = "2023-06-01";
const DEFAULT_BASE_URL = "https://api.anthropic.com";

export interface AnthropicOptions {
  model: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
}

export function createAnthropicClient(options: AnthropicOptions): LlmClient {
  const apiKey = options.env.ANTHROPIC_API_KEY;
  if (apiKey === undefined || apiKey.trim() === "") {
    throw new CtxError("PROVIDER_UNAVAILABLE", "the anthropic summary provider needs ANTHROPIC_API_KEY", {
      hint: "export ANTHROPIC_API_KEY=…, or use --provider extractive (offline) or claude-cli",
    });
  }
  const base = (options.env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  return {
    provider: "anthropic",
    model: options.model,
    complete: async (prompt, maxOutputTokens): Promise<LlmAnswer> => {
      let response: Response;
      try {
        response = await doFetch(`${base}/v1/messages`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-api-key": apiKey,
            "anthropic-version": ANTHROPIC_VERSION,
          },
          body: JSON.stringify({
            model: options.model,
            max_tokens: maxOutputTokens,
            messages: [{ role: "user", content: prompt }],
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        throw new CtxError("PROVIDER_FAILED", `the Messages API at ${base} could not be reached: ${String(error)}`, {
          hint: "check the network and ANTHROPIC_BASE_URL, or use --provider extractive",
          cause: error,
        });
      }
      const body = await response.text();
      if (!response.ok) {
        throw new CtxError("PROVIDER_FAILED", `the Messages API answered ${response.status}: ${errorMessageOf(body)}`, {
          hint:
            response.status === 401
              ? "ANTHROPIC_API_KEY was refused: check the key"
              : "try again later, or use --provider extractive",
        });
      }
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        throw new CtxError("PROVIDER_FAILED", "the Messages API answered something that is not JSON");
      }
      return parseMessagesResponse(value);
    },
  };
}

function errorMessageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") return parsed.error.message;
  } catch {
    // not JSON: the raw text below
  }
  return body.slice(0, 200);
}
