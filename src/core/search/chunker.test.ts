// buildChunks: sizes, no overlap, whole code blocks, user turns kept with their replies, determinism, ordinals;
// over synthetic sessions (sizes chosen to hit each rule) and the real fixtures' messages.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTranscriptFrom } from "../../search/sync/read-transcript.ts";
import { estimateTokens } from "../estimate.ts";
import { buildChunks, CHUNK_MAX_TOKENS, CHUNK_MIN_TOKENS, renderMessage, typedText } from "./chunker.ts";
import type { IndexMessage } from "./messages.ts";
import type { IndexedChunk } from "./model.ts";

const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures");

function message(role: IndexMessage["role"], text: string, tools: string[] = []): IndexMessage {
  return { uuid: null, offset: 0, role, text, timestamp: null, tools, sidechain: false };
}

/** Prose of about `tokens` tokens, sentence by sentence, tagged so a test can find where it went. */
function prose(tag: string, tokens: number): string {
  const sentences: string[] = [];
  let index = 0;
  while (sentences.join(" ").length < tokens * 4) sentences.push(`${tag} sentence ${index++} talks about the parser.`);
  return sentences.join(" ");
}

function fenceCount(text: string): number {
  return text.split("\n").filter((line) => /^ {0,3}```/.test(line)).length;
}

/** Chunks over MAX are allowed only when they hold one code block bigger than MAX and nothing else of note. */
function expectWithinMax(chunks: IndexedChunk[]) {
  for (const chunk of chunks) {
    if (chunk.tokenCount > CHUNK_MAX_TOKENS) expect(fenceCount(chunk.text)).toBe(2);
    expect(chunk.tokenCount).toBe(estimateTokens(chunk.text));
  }
}

describe("buildChunks", () => {
  it("packs small exchanges into chunks of 500-1000 tokens, each prompt with its reply", () => {
    const messages: IndexMessage[] = [];
    for (let index = 0; index < 60; index += 1) {
      messages.push(message("user", `Question Q${index}: ${prose(`q${index}`, 20 + (index % 5) * 10)}`));
      messages.push(
        message("assistant", `Answer A${index}: ${prose(`a${index}`, 80 + ((index * 37) % 300))}`, ["Edit src/a.ts"]),
      );
    }
    const chunks = buildChunks("s1", messages);
    expect(chunks.length).toBeGreaterThan(5);
    expectWithinMax(chunks);
    chunks.forEach((chunk, index) => {
      expect(chunk.chunkIndex).toBe(index);
      expect(chunk.sessionId).toBe("s1");
      if (index < chunks.length - 1) expect(chunk.tokenCount).toBeGreaterThanOrEqual(CHUNK_MIN_TOKENS);
      for (const match of chunk.text.matchAll(/User: Question Q(\d+):/g)) {
        expect(chunk.text).toContain(`Assistant: Answer A${match[1]}:`);
      }
    });
    // Every message is in exactly one chunk's range, in order, with no gap.
    expect(chunks[0]?.firstMessage).toBe(0);
    expect(chunks.at(-1)?.lastMessage).toBe(messages.length - 1);
    for (let index = 1; index < chunks.length; index += 1) {
      expect(chunks[index]?.firstMessage).toBe((chunks[index - 1]?.lastMessage ?? 0) + 1);
    }
  });

  it("holds each message's text in one chunk only: no chunk repeats the end of the one before", () => {
    const messages: IndexMessage[] = [];
    for (let index = 0; index < 20; index += 1) {
      messages.push(message("user", `Q${index} ${prose(`q${index}`, 30)}`));
      messages.push(message("assistant", `A${index} first line.\n${prose(`a${index}`, 200)}\nLast line of A${index}.`));
    }
    const chunks = buildChunks("s1", messages);
    expect(chunks.length).toBeGreaterThan(3);
    // The chunks' texts are the messages rendered, in order, each once.
    expect(chunks.map((chunk) => chunk.text).join("\n")).toBe(messages.map(renderMessage).join("\n"));
    for (const chunk of chunks.slice(1)) expect(chunk.text.startsWith("User: Q")).toBe(true);
  });

  it("splits an exchange over MAX between paragraphs, never inside a code block, prompt glued to its reply", () => {
    const code = [
      "```ts",
      ...Array.from({ length: 40 }, (_, line) => `const value${line} = compute(${line});`),
      "",
      "export {};",
      "```",
    ].join("\n");
    const reply = [
      prose("intro", 300),
      "",
      prose("middle", 400),
      "",
      code,
      "",
      prose("outro", 500),
      "",
      prose("end", 300),
    ].join("\n");
    const messages = [
      message("user", "Please refactor the parser"),
      message("assistant", reply, ["Edit src/parser.ts"]),
    ];
    const chunks = buildChunks("s1", messages);
    expect(chunks.length).toBeGreaterThan(2);
    expectWithinMax(chunks);
    expect(chunks[0]?.text.startsWith("User: Please refactor the parser\nAssistant: intro sentence 0")).toBe(true);
    const holders = chunks.filter((chunk) => chunk.text.includes("const value0 = compute(0);"));
    expect(holders).toHaveLength(1);
    expect(holders[0]?.text).toContain(code);
    expect(holders[0]).toMatchObject({ hasCode: true, languages: ["typescript"] });
    for (const chunk of chunks) expect(fenceCount(chunk.text) % 2).toBe(0);
    expect(chunks.map((chunk) => [chunk.firstMessage, chunk.lastMessage])).toEqual(
      chunks.map((_chunk, index) => (index === 0 ? [0, 1] : [1, 1])),
    );
  });

  it("keeps a code block bigger than MAX whole, alone in its chunk", () => {
    const huge = [
      "```python",
      ...Array.from({ length: 300 }, (_, line) => `result_${line} = transform(data, step=${line})`),
      "```",
    ].join("\n");
    expect(estimateTokens(huge)).toBeGreaterThan(CHUNK_MAX_TOKENS * 2);
    const messages = [
      message("user", `Here is the script\n\n${huge}`),
      message("assistant", prose("reply", 200)),
      message("user", "Thanks"),
      message("assistant", "You are welcome."),
    ];
    const chunks = buildChunks("s1", messages);
    const holder = chunks.find((chunk) => chunk.text.includes("result_0 ="));
    expect(holder?.text).toContain(huge);
    expect(holder?.text.trim()).toBe(huge);
    expect(holder).toMatchObject({ hasCode: true, languages: ["python"] });
    expect(chunks.filter((chunk) => chunk.text.includes("result_299 ="))).toHaveLength(1);
    expect(chunks[0]?.text).toBe("User: Here is the script");
    expect(buildChunks("s1", [message("user", huge)])[0]?.text).toBe(`User:\n${huge}`);
  });

  it("cuts one enormous paragraph without blank lines into pieces under MAX", () => {
    const wall = Array.from({ length: 400 }, (_, index) => `line ${index} of a pasted log without blank lines`).join(
      "\n",
    );
    const single = "word ".repeat(6000).trim();
    const chunks = buildChunks("s1", [message("user", wall), message("assistant", single)]);
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(CHUNK_MAX_TOKENS);
    expect(chunks.map((chunk) => chunk.text).join("\n")).toContain("line 399 of a pasted log");
  });

  it("reads back what the person typed: the User messages of a chunk as buildChunks renders them", () => {
    const [chunk] = buildChunks("s1", [
      message("user", "rotate the logs\nevery night"),
      message("assistant", "Done.", ["Edit /etc/logrotate.d/site"]),
      message("user", "```sh\nlogrotate -d site\n```"),
      message("assistant", "It parses."),
      message("summary", "Earlier work"),
    ]);
    expect(typedText(chunk?.text ?? "")).toBe("rotate the logs\nevery night\n\n```sh\nlogrotate -d site\n```");
    // Text before the first label (an old index's overlap from the chunk before) is not known to be typed: left out.
    expect(typedText("the end of a reply\nUser: next prompt\nAssistant: ok")).toBe("next prompt");
    expect(typedText("Assistant: only a reply\nTools: Bash: ls")).toBe("");
  });

  it("renders messages as documented and marks memory types from prose, not tool gists", () => {
    expect(renderMessage(message("assistant", "Done.", ["Edit src/a.ts", "Bash: pnpm test"]))).toBe(
      "Assistant: Done.\nTools: Edit src/a.ts; Bash: pnpm test",
    );
    expect(renderMessage(message("summary", "Earlier work"))).toBe("Summary: Earlier work");
    expect(renderMessage(message("assistant", "```js\nopen()"))).toBe("Assistant:\n```js\nopen()\n```");
    const solved = buildChunks("s1", [
      message("user", "why does it crash?"),
      message("assistant", "The fix was to close the handle."),
    ]);
    expect(solved[0]?.memoryType).toBe("WORKING_SOLUTION");
    const toolOnly = buildChunks("s1", [message("user", "look"), message("assistant", "", ["Grep waiting for"])]);
    expect(toolOnly[0]).toMatchObject({ memoryType: null, text: "User: look\nTools: Grep waiting for" });
  });

  it("numbers from firstOrdinal and firstChunkIndex, and gives nothing for no messages", () => {
    expect(buildChunks("s1", [])).toEqual([]);
    const chunks = buildChunks("s1", [message("user", "hi"), message("assistant", "hello")], {
      firstOrdinal: 40,
      firstChunkIndex: 7,
    });
    expect(chunks).toEqual([
      {
        sessionId: "s1",
        chunkIndex: 7,
        firstMessage: 40,
        lastMessage: 41,
        text: "User: hi\nAssistant: hello",
        tokenCount: 7,
        hasCode: false,
        languages: [],
        memoryType: null,
      },
    ]);
  });

  it("keeps inline subagent messages (old transcripts) inside the main exchange; a subagent file has its own", () => {
    const side = (role: IndexMessage["role"], text: string) => ({ ...message(role, text), sidechain: true });
    const inline = buildChunks("s1", [
      message("user", "build the app"),
      message("assistant", "Delegating.", ["Task Setup project"]),
      side("user", "Set up the project"),
      side("assistant", "Done setting up."),
      message("assistant", "The subagent finished."),
      message("user", "thanks"),
      message("assistant", "You are welcome."),
    ]);
    expect(inline).toHaveLength(1);
    expect(inline[0]?.text).toBe(
      [
        "User: build the app",
        "Assistant: Delegating.",
        "Tools: Task Setup project",
        "User: Set up the project",
        "Assistant: Done setting up.",
        "Assistant: The subagent finished.",
        "User: thanks",
        "Assistant: You are welcome.",
      ].join("\n"),
    );
  });

  it("chunks an increment from its own messages alone, numbered from where it starts", () => {
    const chunks = buildChunks("s1", [message("user", "next question"), message("assistant", "next answer")], {
      firstOrdinal: 12,
      firstChunkIndex: 3,
    });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ chunkIndex: 3, firstMessage: 12, lastMessage: 13 });
    expect(chunks[0]?.text).toBe("User: next question\nAssistant: next answer");
  });

  it("holds its rules for any session (property)", () => {
    const block = fc.oneof(
      fc.integer({ min: 1, max: 700 }).map((tokens) => prose("p", tokens)),
      fc
        .integer({ min: 1, max: 400 })
        .map((lines) => ["```sh", ...Array.from({ length: lines }, (_, i) => `echo step ${i}`), "```"].join("\n")),
    );
    const messageArb = fc.record({
      role: fc.constantFrom<IndexMessage["role"]>("user", "assistant", "assistant", "summary"),
      blocks: fc.array(block, { minLength: 1, maxLength: 4 }),
      tools: fc.array(fc.constantFrom("Edit src/a.ts", "Bash: pnpm test", "Read lib/x.ex"), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(messageArb, { minLength: 1, maxLength: 25 }), (specs) => {
        const messages = specs.map((spec) => message(spec.role, spec.blocks.join("\n\n"), spec.tools));
        const chunks = buildChunks("s", messages);
        expect(buildChunks("s", messages)).toEqual(chunks);
        for (const chunk of chunks) {
          expect(fenceCount(chunk.text) % 2).toBe(0);
          if (chunk.tokenCount > CHUNK_MAX_TOKENS) {
            expect(fenceCount(chunk.text)).toBe(2);
            expect(chunk.text.trimEnd().endsWith("```")).toBe(true);
          }
          expect(chunk.firstMessage).toBeLessThanOrEqual(chunk.lastMessage);
        }
        for (let index = 1; index < chunks.length; index += 1) {
          expect(chunks[index]?.firstMessage).toBeGreaterThanOrEqual(chunks[index - 1]?.lastMessage ?? 0);
        }
        expect(chunks.at(-1)?.lastMessage).toBe(messages.length - 1);
      }),
      { numRuns: 60, seed: 20_261_122 },
    );
  });
});

describe("buildChunks on the real fixtures", () => {
  const files = ["claude/projects", "transcripts/synthetic"].flatMap((folder) =>
    readdirSync(join(FIXTURES, folder), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".jsonl") && !name.includes("subagents"))
      .map((name) => join(FIXTURES, folder, name)),
  );

  it.each(files)("%s: chunks cover every message within the size rules, deterministically", async (path) => {
    const read = await readTranscriptFrom(path, 0);
    const chunks = buildChunks("s", read.messages);
    expect(chunks.length).toBeGreaterThan(0);
    expectWithinMax(chunks);
    expect(buildChunks("s", read.messages)).toEqual(chunks);
    expect(chunks[0]?.firstMessage).toBe(0);
    expect(chunks.at(-1)?.lastMessage).toBe(read.messages.length - 1);
  });

  it("the long spotter session: about 750-token chunks, Elixir detected, the compact summary searchable", async () => {
    const read = await readTranscriptFrom(
      join(
        FIXTURES,
        "claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
      ),
      0,
    );
    const chunks = buildChunks("4d5611e5", read.messages);
    expect(chunks.length).toBeGreaterThanOrEqual(12);
    const average = chunks.reduce((sum, chunk) => sum + chunk.tokenCount, 0) / chunks.length;
    expect(average).toBeGreaterThan(650);
    expect(average).toBeLessThan(950);
    expect(chunks.some((chunk) => chunk.languages.includes("elixir"))).toBe(true);
    expect(chunks.some((chunk) => chunk.text.includes("Summary: This session is being continued"))).toBe(true);
    expect(chunks.some((chunk) => chunk.text.includes("Tools: Bash: bd show spotter-dov; Bash: bd ready"))).toBe(true);
    expect(chunks.some((chunk) => chunk.memoryType === "WORKING_SOLUTION")).toBe(true);
  });
});
