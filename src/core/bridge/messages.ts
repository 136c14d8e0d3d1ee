// The texts the bridge sends and says: a long message cut into the parts of one Claude session (chunkInput, with
// the product document's part headers), the parts' answers aggregated into one reply, the seed of a new Claude
// session, and the person-facing notices. Pure.
import { chunkInput } from "../chunking/input.ts";
import { cleanCommandText } from "../text/command-text.ts";

export interface PromptPart {
  index: number;
  total: number;
  /** What goes on Claude's stdin for this part. */
  prompt: string;
  /** The slice of the person's message it carries. */
  chars: number;
}

/**
 * One prompt for a short message; for one over `maxChars`, N parts that say how they belong together. The text is
 * cleaned for the command line first (cleanCommandText): a control character has no place in a prompt.
 */
export function planPromptParts(message: string, maxChars: number): PromptPart[] {
  const text = cleanCommandText(message);
  if (text.length <= maxChars) return [{ index: 0, total: 1, prompt: text, chars: text.length }];
  const chunks = chunkInput(text, { max: maxChars });
  const total = chunks.length;
  return chunks.map((chunk, index) => ({
    index,
    total,
    chars: chunk.text.length,
    prompt:
      index === 0
        ? `This message is long, so it arrives in ${total} parts, one per turn. Acknowledge each part briefly and ` +
          `answer the whole message after part ${total} of ${total}.\n\nPart 1 of ${total}:\n\n${chunk.text}`
        : `Here is more of the same message (part ${index + 1} of ${total}):\n\n${chunk.text}`,
  }));
}

/** The answers of a message's parts as one reply; a single part's answer as it is. */
export function aggregateAnswers(answers: readonly string[]): string {
  const kept = answers.map((answer) => answer.trim()).filter((answer) => answer !== "");
  return kept.join("\n\n");
}

/** What a seeded Claude session gets as its appended system prompt, cleaned: it becomes a process argument. */
export function seedSystemPrompt(summary: string): string {
  return cleanCommandText(
    "You are answering a person through a Synology Chat bridge. This conversation continues an earlier one; " +
      "its summary follows. Treat what it says the person asked for or prefers as still true.\n\n" +
      `<conversation-summary>\n${summary}\n</conversation-summary>`,
  );
}

/** `bytes` is the message's size when it was read; a body over the HTTP cap is not read, and only the limit shows. */
export function tooLargeNotice(bytes: number, limit: number): string {
  const size = bytes > limit ? `Your message is ${formatBytes(bytes)}, over` : "Your message is over";
  return (
    `${size} this bridge's limit of ${formatBytes(limit)} ` +
    "(bridge.maxInputBytes), so it was not sent to Claude. Send it in smaller pieces or attach it as a file on the NAS."
  );
}

export function tooLongForSessionNotice(chars: number, estimatedTokens: number, hardLimitTokens: number): string {
  return (
    `Your message is ${chars.toLocaleString("en-US")} characters, about ${estimatedTokens.toLocaleString("en-US")} ` +
    `tokens with its parts, more than one Claude session can hold (bridge.hardLimitTokens, ` +
    `${hardLimitTokens.toLocaleString("en-US")}), so it was not sent to Claude. Send it in smaller pieces or attach ` +
    "it as a file on the NAS."
  );
}

/** A long message that took a session it began past the hard limit: the parts not sent are named, not dropped. */
export function overflowNotice(done: number, total: number, contextTokens: number, hardLimitTokens: number): string {
  return (
    `⚠️ Your message did not fit in one Claude session: after part ${done} of ${total} the context was ` +
    `${contextTokens.toLocaleString("en-US")} tokens, and the rest would take it past bridge.hardLimitTokens ` +
    `(${hardLimitTokens.toLocaleString("en-US")}), so parts ${done + 1}-${total} were not sent; the text above ` +
    `covers parts 1-${done} of ${total} only. Send the rest as a new message, or the whole as a file on the NAS.`
  );
}

export function partialFailureNotice(done: number, total: number, error: string): string {
  return `⚠️ Part ${done + 1} of ${total} of your message failed (${error}); the answer above covers parts 1-${done} only.`;
}

export function failureNotice(error: string): string {
  return `⚠️ Claude could not answer this message: ${error}. Nothing else was lost; send it again to retry.`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(2)} MiB (${bytes.toLocaleString("en-US")} bytes)`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB (${bytes.toLocaleString("en-US")} bytes)`;
  return `${bytes} bytes`;
}
