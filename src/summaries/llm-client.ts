// What an LLM summary provider must do: complete one prompt within an output allowance and say what it used.
import type { LlmAnswer } from "../core/summaries/llm-prompt.ts";

export interface LlmClient {
  provider: "claude-cli" | "anthropic";
  model: string;
  complete(prompt: string, maxOutputTokens: number): Promise<LlmAnswer>;
}
