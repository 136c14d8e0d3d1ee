import { describe, expect, it } from "vitest";
import { summarizeExtractive } from "./extractive.ts";
import type { SummaryMessage } from "./messages.ts";

const message = (text: string, role: "user" | "assistant" = "assistant", kind: SummaryMessage["kind"] = "reply") => ({
  uuid: "m",
  role,
  kind,
  text,
  exactTokens: null,
  timestamp: null,
});
const alone = (m: SummaryMessage) => ({ message: m, before: null, after: null });

const FILLER =
  "This part of the reply talks about the general approach in broad terms without naming anything in particular. " +
  "It goes on for a while, restating the idea in other words so the message gets long enough to be cut. ";

describe("summarizeExtractive", () => {
  it("keeps short messages whole", () => {
    expect(summarizeExtractive(alone(message("Done: tests pass.")))).toBe("Done: tests pass.");
  });

  it("keeps file paths, identifiers, errors and numbers, and drops filler, to about a quarter of the length", () => {
    const text =
      `${FILLER.repeat(3)}The failure is TypeError: cannot read properties of undefined in src/store/lock.ts. ` +
      `${FILLER.repeat(3)}We decided to keep \`withLock\` and raise the timeout to 10000 ms. ${FILLER.repeat(2)}`;
    const summary = summarizeExtractive(alone(message(text)));
    expect(summary).toContain("src/store/lock.ts");
    expect(summary).toContain("TypeError");
    expect(summary).toContain("withLock");
    expect(summary).toContain("10000");
    expect(summary.length / text.length).toBeGreaterThan(0.1);
    expect(summary.length / text.length).toBeLessThan(0.35);
  });

  it("keeps every tool call of a reply as a short gist with its file name", () => {
    const text = `${FILLER}\nEdit(/home/someone/projects/a-very-long-worktree-name/lib/app_web/live/session_live.ex)\nBash(mix test)`;
    const summary = summarizeExtractive(alone(message(text)));
    expect(summary).toContain("live/session_live.ex)");
    expect(summary).toContain("Bash(mix test)");
  });

  it("reduces a code block to its language, size and signature lines", () => {
    const code = [
      "```ts",
      "import { a } from './a.ts';",
      ...Array.from({ length: 30 }, (_, i) => `const x${i} = ${i};`),
      "export function retry(n: number) {",
      "  return n;",
      "}",
      "```",
    ];
    const summary = summarizeExtractive(alone(message(`${FILLER}\n${code.join("\n")}\n${FILLER}`)));
    expect(summary).toMatch(/\[code ts, 34 lines\] import \{ a \} from '\.\/a\.ts';.*export function retry/);
    expect(summary).not.toContain("const x29");
  });

  it("keeps the person's request first", () => {
    const text = `Please add retries to src/http/client.ts. ${FILLER.repeat(2)}`;
    expect(summarizeExtractive(alone(message(text, "user", "prompt")))).toMatch(
      /^Please add retries to src\/http\/client\.ts\./,
    );
  });

  it("a short answer carries the question it answers (the assistant message before it)", () => {
    const before = message("I can use Redis or SQLite for the cache. Which one should I use?");
    const summary = summarizeExtractive({ message: message("SQLite", "user", "prompt"), before, after: null });
    expect(summary).toBe("SQLite (in reply to: Which one should I use?)");
  });

  it("prefers what the neighbouring messages talk about", () => {
    const text = `${FILLER}The parser in tokenizer_core handles quotes. ${FILLER}The renderer handles colours. ${FILLER}`;
    const prompt = message("Why does tokenizer_core break on quotes?", "user", "prompt");
    const summary = summarizeExtractive({ message: message(text), before: prompt, after: null });
    expect(summary).toContain("tokenizer_core handles quotes");
  });

  it("is deterministic", () => {
    const text = `${FILLER.repeat(4)} see src/a.ts and ERR_BAD (exit code 2).`;
    expect(summarizeExtractive(alone(message(text)))).toBe(summarizeExtractive(alone(message(text))));
  });

  it("keeps the person's answers to AskUserQuestion whole", () => {
    const text = `User has answered your questions: "Which tools?"="Credo + Dialyxir + mix_audit", "Which rig?"="No rig". ${FILLER}`;
    expect(summarizeExtractive(alone(message(text, "user", "tool-result")))).toContain('"Which rig?"="No rig"');
  });
});
