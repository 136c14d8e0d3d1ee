// readTranscriptFrom over every real fixture (facts read from the files by hand), then the ways a file goes wrong.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSecretCases } from "../../../tests/fixtures/redaction/fake-secrets.ts";
import { FIXTURE } from "../../../tests/helpers/claude-projects.ts";
import { type IndexMessage, readTranscriptFrom } from "./read-transcript.ts";

const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures");
const LONG = FIXTURE.long;
const SUBAGENTS = FIXTURE.longSubagents;

const tempDir = () => mkdtempSync(join(tmpdir(), "read-transcript-"));
const roles = (messages: IndexMessage[]) => messages.map((message) => message.role);
const count = (messages: IndexMessage[], role: IndexMessage["role"], sidechain = false) =>
  messages.filter((message) => message.role === role && message.sidechain === sidechain).length;
const allTools = (messages: IndexMessage[]) => messages.flatMap((message) => message.tools);

describe("readTranscriptFrom on the real fixtures", () => {
  it("spotter/short.jsonl: one prompt, one reply joined from five block lines, rejected tools", async () => {
    const read = await readTranscriptFrom(FIXTURE.short, 0);
    expect(read).toMatchObject({ lines: 15, skippedLines: 0, unknownEntries: 0, endOffset: 10491 });
    expect(read.meta).toEqual({
      sessionId: "55604662-cf2a-4331-851a-ec234028f8ca",
      cwd: "/home/marco/projects/spotter",
      gitBranch: "master",
      title: null,
      firstPrompt: "mix phx.server doesnt seem to start",
      firstTimestamp: Date.parse("2026-02-10T21:11:56.846Z"),
      lastTimestamp: Date.parse("2026-02-10T21:16:12.381Z"),
      rootUuid: "7d48cbd2-6615-4dd8-87f6-38f12b8167d6",
      originSession: null,
      copiedRoot: false,
    });
    expect(roles(read.messages)).toEqual(["user", "assistant"]);
    const reply = read.messages[1] as IndexMessage;
    // Lines 5-9 share message.id msg_01MKH1cc…: whitespace text, thinking, text, two tool_use; thinking is left out.
    expect(reply.text).toBe("Let me check the project structure and try running the server to see the error.");
    expect(reply.tools).toEqual([
      "Bash: mix phx.server 2>&1 | head -80",
      "Glob mix.exs",
      "Rejected by user",
      "Rejected by user",
    ]);
    expect(reply.uuid).toBe("1b7d717f-d6a2-46a6-8575-fa4f937450ea");
    // The reply ends on its last block's line: where `--resume-session-at` keeps the whole reply.
    expect(reply.endUuid).not.toBe(reply.uuid);
    // The /model local command and its stdout (system entries) and the interruption notice are not messages.
    expect(read.messages.some((message) => message.text.includes("Request interrupted"))).toBe(false);
  });

  it("spotter/tool_heavy.jsonl: prompts, background Bash, web tools; queue-operation and meta skipped", async () => {
    const read = await readTranscriptFrom(FIXTURE.toolHeavy, 0);
    expect(read).toMatchObject({ lines: 39, skippedLines: 0, unknownEntries: 0 });
    expect(read.meta.sessionId).toBe("d6e0bada-1959-4eec-a9d2-0bfade768d8f");
    expect(read.meta.firstPrompt).toBe("start phoenix in background");
    expect(count(read.messages, "user")).toBe(3);
    expect(count(read.messages, "assistant")).toBe(4);
    expect(allTools(read.messages)).toContain("Bash: mix phx.server");
    expect(allTools(read.messages)).toContain("Read /home/marco/projects/spotter/assets/js/app.js");
    expect(read.messages.some((message) => message.text.includes("local-command"))).toBe(false);
  });

  it("spotter/subagent.jsonl: a slash command becomes `/name args`, its expansion (isMeta) is dropped", async () => {
    const read = await readTranscriptFrom(FIXTURE.subagent, 0);
    expect(read.meta.sessionId).toBe("491e126e-1e71-469c-ade2-fcc8af567c74");
    expect(read.meta.firstPrompt).toMatch(/^\/handgemacht:create-beads websearch to learn how to fastest setup credo/);
    const prompts = read.messages.filter((message) => message.role === "user").map((message) => message.text);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toBe("create the beads");
    expect(count(read.messages, "assistant")).toBe(12);
    expect(allTools(read.messages)).toContain("WebSearch dialyxir igniter install elixir");
    expect(read.messages.some((message) => message.text.startsWith("Create beads (epic"))).toBe(false);
  });

  it("spotter 4d5611e5 (1,512 lines): the compaction summary is a summary message at its line", async () => {
    const read = await readTranscriptFrom(LONG, 0);
    expect(read).toMatchObject({ lines: 1512, skippedLines: 0, unknownEntries: 0, endOffset: statSync(LONG).size });
    expect(read.meta).toMatchObject({
      sessionId: "4d5611e5-241a-462a-8d15-5122611a9569",
      cwd: "/home/USER/projects/spotter-worktrees/spotter-dov",
      gitBranch: "spotter-dov",
      title: null,
    });
    expect(read.meta.firstPrompt).toMatch(/^Work on bead spotter-dov\. Run bd show spotter-dov/);
    expect(count(read.messages, "user")).toBe(2); // the first prompt and "continue"; the task-notification is noise
    expect(count(read.messages, "assistant")).toBe(139);
    const summaries = read.messages.filter((message) => message.role === "summary");
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.text).toMatch(/^This session is being continued from a previous conversation/);
    // Line 755 (1-based) holds the isCompactSummary entry: its offset is where that line starts.
    const lines = readFileSync(LONG, "utf8").split("\n");
    expect(summaries[0]?.offset).toBe(Buffer.byteLength(lines.slice(0, 754).join("\n")) + 1);
    expect(allTools(read.messages)).toContain("Bash: bd show spotter-dov");
    expect(allTools(read.messages)).toContain("Task Explore transcript rendering codebase");
    expect(read.messages.every((message) => !message.sidechain)).toBe(true);
  });

  it("a subagent file: every message is a sidechain, the parent's session id, no first prompt", async () => {
    const read = await readTranscriptFrom(join(SUBAGENTS, "agent-a2898e3.jsonl"), 0);
    expect(read).toMatchObject({ lines: 144, skippedLines: 0 });
    expect(read.meta.sessionId).toBe("4d5611e5-241a-462a-8d15-5122611a9569");
    expect(read.meta.firstPrompt).toBeNull();
    expect(read.messages.every((message) => message.sidechain)).toBe(true);
    expect(read.messages[0]?.text).toMatch(/^Very thorough exploration\. I need to understand:/);
    expect(count(read.messages, "assistant", true)).toBe(12);
    expect(allTools(read.messages)).toContain("Error: File does not exist.");
  });

  it("claude-code-viewer fe5e1c67 (1.0.98): another session's summary record is left out, inline sidechains are marked", async () => {
    const read = await readTranscriptFrom(FIXTURE.viewer("fe5e1c67-53e7-4862-81ae-d0e013e3270b"), 0);
    expect(read).toMatchObject({ lines: 438, skippedLines: 0, unknownEntries: 0 });
    // Its first line titles 1af7fc5e's /init (its leafUuid is a line of that transcript): neither text nor title here.
    expect(read.meta.title).toBeNull();
    expect(count(read.messages, "summary")).toBe(0);
    expect(read.meta.firstPrompt).toBe("/orchestrator create TODO app by Next.js");
    expect(count(read.messages, "assistant")).toBe(9);
    expect(count(read.messages, "assistant", true)).toBe(161);
    expect(count(read.messages, "user", true)).toBe(5); // the prompts the orchestrator gave its subagents
    const mainPrompts = read.messages.filter((message) => message.role === "user" && !message.sidechain);
    expect(mainPrompts.map((message) => message.text)).toEqual([
      "/orchestrator create TODO app by Next.js",
      "Thanks! Please update CLAUDE.md for current changes",
    ]);
    expect(allTools(read.messages)).toContain("Task Setup Next.js project");
  });

  it("claude-code-viewer 5c0375b4 (1.0.108) and 1af7fc5e (1.0.98)", async () => {
    const japanese = await readTranscriptFrom(FIXTURE.viewer("5c0375b4-57a5-4f26-b12d-d022ee4e51b7"), 0);
    expect(japanese.meta.sessionId).toBe("5c0375b4-57a5-4f26-b12d-d022ee4e51b7");
    expect(japanese.meta.firstPrompt).toBe("/orchestrator @CLAUDE.md を最新の状態にアップデートしてください");
    expect(count(japanese.messages, "assistant", true)).toBe(10);
    expect(allTools(japanese.messages)).toContain("Task Analyze project structure");
    const init = await readTranscriptFrom(FIXTURE.viewer("1af7fc5e-8455-4414-9ccd-011d40f70b2a"), 0);
    expect(init.meta).toMatchObject({ sessionId: "1af7fc5e-8455-4414-9ccd-011d40f70b2a", firstPrompt: "/init" });
    expect(roles(init.messages)).toEqual(["user", ...Array(7).fill("assistant")]);
    expect(allTools(init.messages)).toContain("Write /path/to/Demo/CLAUDE.md");
  });

  it("synthetic malformed.jsonl: three entries survive, the rest is counted", async () => {
    const path = join(FIXTURES, "transcripts/synthetic/malformed.jsonl");
    const read = await readTranscriptFrom(path, 0);
    expect(roles(read.messages)).toEqual(["summary", "user", "assistant"]);
    expect(read).toMatchObject({ lines: 11, skippedLines: 4, unknownEntries: 1 });
    // The last line is cut off without a newline: not consumed, so endOffset stops before it.
    const bytes = readFileSync(path);
    expect(read.endOffset).toBe(bytes.lastIndexOf(0x0a) + 1);
    expect(read.endOffset).toBeLessThan(bytes.length);
  });

  it("synthetic task-tools.jsonl: Task tools, a failed Write's error gist, the compact summary", async () => {
    const read = await readTranscriptFrom(join(FIXTURES, "transcripts/synthetic/task-tools.jsonl"), 0);
    expect(allTools(read.messages)).toEqual(
      expect.arrayContaining([
        "TaskCreate Parse the input",
        "Edit /work/demo/src/parser.ts",
        "Error: File has not been read yet. Read it first before writing to it.",
      ]),
    );
    expect(count(read.messages, "summary")).toBe(1);
    expect(count(read.messages, "user", true)).toBe(0); // the sidechain's user line is a tool result
    expect(
      read.messages.some((message) => message.sidechain && message.tools.includes("Read /work/demo/README.md")),
    ).toBe(true);
  });

  it("the compaction summariser's transcript parses (discovery, not the reader, keeps it out)", async () => {
    const read = await readTranscriptFrom(join(SUBAGENTS, "agent-acompact-e1f845.jsonl"), 0);
    expect(read).toMatchObject({ lines: 5, skippedLines: 0 });
    expect(read.messages.every((message) => message.sidechain)).toBe(true);
  });
});

describe("readTranscriptFrom: offsets", () => {
  it("reading in two increments split before a prompt gives exactly the messages of one read", async () => {
    const whole = await readTranscriptFrom(LONG, 0);
    const resumeAt = whole.messages.find((message) => message.text === "continue")?.offset as number;
    const dir = tempDir();
    const path = join(dir, "grow.jsonl");
    const bytes = readFileSync(LONG);
    writeFileSync(path, bytes.subarray(0, resumeAt));
    const first = await readTranscriptFrom(path, 0);
    expect(first.endOffset).toBe(resumeAt);
    appendFileSync(path, bytes.subarray(resumeAt));
    const second = await readTranscriptFrom(path, first.endOffset);
    expect(second.endOffset).toBe(bytes.length);
    expect(second.messages[0]?.text).toBe("continue");
    expect([...first.messages, ...second.messages]).toEqual(whole.messages);
    expect(first.lines + second.lines).toBe(1512);
    expect(second.meta.firstPrompt).toBe("continue");
    rmSync(dir, { recursive: true });
  });

  it("leaves a partial last line for the next read, then reads it once it is complete", async () => {
    const dir = tempDir();
    const path = join(dir, "live.jsonl");
    const line = (text: string, uuid: string) =>
      `${JSON.stringify({ type: "user", uuid, sessionId: "s1", message: { role: "user", content: text } })}\n`;
    writeFileSync(path, line("first prompt", "u1"));
    const second = line("second prompt", "u2");
    appendFileSync(path, second.slice(0, 30));
    const before = await readTranscriptFrom(path, 0);
    expect(before.messages.map((message) => message.text)).toEqual(["first prompt"]);
    expect(before.endOffset).toBe(Buffer.byteLength(line("first prompt", "u1")));
    expect(before.skippedLines).toBe(0);
    appendFileSync(path, second.slice(30));
    const after = await readTranscriptFrom(path, before.endOffset);
    expect(after.messages).toMatchObject([{ text: "second prompt", uuid: "u2", offset: before.endOffset }]);
    expect(after.endOffset).toBe(statSync(path).size);
    const again = await readTranscriptFrom(path, after.endOffset);
    expect(again).toMatchObject({ messages: [], lines: 0, endOffset: after.endOffset });
    rmSync(dir, { recursive: true });
  });

  it("a summary record written after a later read began still titles the session when it names the line before it", async () => {
    const dir = tempDir();
    const path = join(dir, "live.jsonl");
    const entry = (value: Record<string, unknown>) => `${JSON.stringify({ sessionId: "s1", ...value })}\n`;
    writeFileSync(
      path,
      entry({ type: "user", uuid: "u1", message: { role: "user", content: "reset the window tiles" } }),
    );
    appendFileSync(
      path,
      entry({ type: "assistant", uuid: "a1", message: { id: "m1", role: "assistant", content: "Tiles reset." } }),
    );
    for (const blocking of [false, true]) {
      const first = await readTranscriptFrom(path, 0, { blocking });
      expect(first.meta.title).toBeNull();
      // Claude Code writes a session's own summary right after the line it names: here, after the first read.
      writeFileSync(`${path}.next`, readFileSync(path));
      appendFileSync(`${path}.next`, entry({ type: "summary", summary: "Window tiles reset", leafUuid: "a1" }));
      appendFileSync(`${path}.next`, entry({ type: "summary", summary: "Another session", leafUuid: "elsewhere" }));
      const next = await readTranscriptFrom(`${path}.next`, first.endOffset, { blocking });
      expect(next.messages.map((message) => [message.role, message.text])).toEqual([["summary", "Window tiles reset"]]);
      expect(next.meta.title).toBe("Window tiles reset");
    }
    // The line before is looked for 8 KB back, then 64 KB: a summary after a longer line is not kept.
    for (const [chars, title] of [
      [20_000, "After a long line"],
      [100_000, null],
    ] as const) {
      const long = join(dir, `long-${chars}.jsonl`);
      writeFileSync(long, entry({ type: "user", uuid: "u9", message: { role: "user", content: "x".repeat(chars) } }));
      const whole = await readTranscriptFrom(long, 0);
      appendFileSync(long, entry({ type: "summary", summary: "After a long line", leafUuid: "u9" }));
      expect((await readTranscriptFrom(long, whole.endOffset)).meta.title).toBe(title);
    }
    rmSync(dir, { recursive: true });
  });

  it("an offset inside a line skips to the next line and counts the fragment", async () => {
    const path = FIXTURE.short;
    const whole = await readTranscriptFrom(path, 0);
    const reply = whole.messages[1] as IndexMessage;
    const read = await readTranscriptFrom(path, reply.offset - 10);
    expect(read.skippedLines).toBe(1);
    expect(read.messages[0]?.offset).toBe(reply.offset);
  });

  it("a missing file gives an empty increment; an offset past the end reads nothing", async () => {
    for (const blocking of [false, true]) {
      const missing = await readTranscriptFrom(join(tempDir(), "gone.jsonl"), 0, { blocking });
      expect(missing).toMatchObject({ messages: [], lines: 0, endOffset: 0 });
      const past = await readTranscriptFrom(FIXTURE.short, 99_999, { blocking });
      expect(past).toMatchObject({ messages: [], lines: 0, endOffset: 99_999 });
    }
  });

  it("refuses a FIFO or a folder in a transcript's place without blocking; reads a listed name as it is", async () => {
    const dir = tempDir();
    const fifo = join(dir, "s1.jsonl");
    execFileSync("mkfifo", [fifo]);
    for (const blocking of [false, true]) {
      // A plain open of a FIFO for reading waits for a writer: this test would hang, not fail, before.
      await expect(readTranscriptFrom(fifo, 0, { blocking })).rejects.toMatchObject({ code: "UNSAFE_PATH" });
      await expect(readTranscriptFrom(dir, 0, { blocking })).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    }
    // A name with a line break is a real file's (the adversarial tests index such sessions): read, not refused.
    const odd = join(dir, "odd\nname.jsonl");
    writeFileSync(odd, readFileSync(FIXTURE.short));
    const plain = await readTranscriptFrom(FIXTURE.short, 0);
    expect((await readTranscriptFrom(odd, 0, { blocking: true })).messages).toEqual(plain.messages);
  });

  it("reads the same with blocking calls (a worker's), and keeps the file's first bytes only from offset 0", async () => {
    for (const path of [LONG, FIXTURE.toolHeavy, FIXTURE.short]) {
      const awaited = await readTranscriptFrom(path, 0, { keepHead: 4096 });
      const blocking = await readTranscriptFrom(path, 0, { keepHead: 4096, blocking: true });
      expect(blocking).toEqual(awaited);
      const bytes = readFileSync(path);
      expect(awaited.head).toEqual(bytes.subarray(0, Math.min(4096, bytes.length)));
      const later = awaited.messages[1]?.offset as number;
      expect((await readTranscriptFrom(path, later, { keepHead: 4096, blocking: true })).head).toBeUndefined();
      expect((await readTranscriptFrom(path, 0)).head).toBeUndefined();
    }
  });
});

describe("readTranscriptFrom: malformed input", () => {
  const prompt = (text: string, uuid = "u") =>
    `${JSON.stringify({ type: "user", uuid, sessionId: "s1", message: { role: "user", content: text } })}\n`;

  it("skips and counts invalid UTF-8, binary garbage and JSON that is not an entry", async () => {
    const dir = tempDir();
    const path = join(dir, "bad.jsonl");
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 131 + 7) % 256));
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"type":"user","uuid":"x","message":{"content":"caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}\n'),
    ]);
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from(prompt("before", "u1")),
        invalidUtf8,
        garbage,
        Buffer.from('\n[1,2,3]\n"a string"\nnull\n{"type":"user"}\n{"type":"hologram","x":1}\n'),
        Buffer.from(prompt("after", "u2")),
      ]),
    );
    const read = await readTranscriptFrom(path, 0);
    expect(read.messages.map((message) => message.text)).toEqual(["before", "after"]);
    const garbageLines = garbage.toString("latin1").split("\n").length;
    expect(read.lines).toBe(2 + 1 + garbageLines + 5);
    expect(read.unknownEntries).toBe(1);
    // invalid UTF-8 + every garbage line + array + string + null + a user entry without its fields
    expect(read.skippedLines).toBe(1 + garbageLines + 4);
    expect(read.endOffset).toBe(statSync(path).size);
    rmSync(dir, { recursive: true });
  });

  it("reads a 10 MB single line, and skips one over the line cap without holding it", async () => {
    const dir = tempDir();
    const path = join(dir, "huge.jsonl");
    const big = "x".repeat(10 * 1024 * 1024);
    writeFileSync(path, prompt(`start ${big} end`, "big") + prompt("next", "next"));
    const read = await readTranscriptFrom(path, 0);
    expect(read.messages.map((message) => message.uuid)).toEqual(["big", "next"]);
    expect(read.messages[0]?.text.startsWith("start xxx")).toBe(true);
    expect(read.messages[0]?.text.length).toBeLessThanOrEqual(64 * 1024);
    const capped = await readTranscriptFrom(path, 0, { maxLineBytes: 1024 * 1024 });
    expect(capped.messages.map((message) => message.uuid)).toEqual(["next"]);
    expect(capped).toMatchObject({ lines: 2, skippedLines: 1, endOffset: statSync(path).size });
    rmSync(dir, { recursive: true });
  });

  it("a file deleted while it is read gives a result or an empty increment, never a crash", async () => {
    const dir = tempDir();
    const path = join(dir, "doomed.jsonl");
    writeFileSync(path, Array.from({ length: 5_000 }, (_, index) => prompt(`prompt ${index}`, `u${index}`)).join(""));
    const reading = readTranscriptFrom(path, 0);
    unlinkSync(path);
    const read = await reading;
    expect([0, 5_000]).toContain(read.messages.length);
    const after = await readTranscriptFrom(path, read.endOffset);
    expect(after).toMatchObject({ messages: [], lines: 0, endOffset: read.endOffset });
    rmSync(dir, { recursive: true });
  });

  it("stops between blocks when aborted, with an endOffset that resumes cleanly", async () => {
    const dir = tempDir();
    const path = join(dir, "long.jsonl");
    writeFileSync(path, Array.from({ length: 5_000 }, (_, index) => prompt(`prompt ${index}`, `u${index}`)).join(""));
    const controller = new AbortController();
    controller.abort();
    const stopped = await readTranscriptFrom(path, 0, { signal: controller.signal });
    expect(stopped).toMatchObject({ messages: [], endOffset: 0 });
    const rest = await readTranscriptFrom(path, stopped.endOffset);
    expect(rest.messages).toHaveLength(5_000);
    rmSync(dir, { recursive: true });
  });
});

describe("readTranscriptFrom: redaction", () => {
  it("redacts prompts, replies, tool gists, the title and the first prompt before returning them", async () => {
    const secrets = buildSecretCases().filter((secretCase) => secretCase.embed.as === "bare");
    const token = secrets.find((secretCase) => secretCase.id === "github-ghp")?.secrets[0]?.value as string;
    const aws = secrets.find((secretCase) => secretCase.id === "aws-access-key-id")?.secrets[0]?.value as string;
    expect(token).toMatch(/^ghp_/);
    const dir = tempDir();
    const path = join(dir, "secret.jsonl");
    const envelope = { sessionId: "s1", timestamp: "2026-03-01T10:00:00.000Z" };
    writeFileSync(
      path,
      [
        { type: "ai-title", aiTitle: `Rotate ${token}` },
        { ...envelope, type: "user", uuid: "u1", message: { role: "user", content: `use the token ${token} please` } },
        {
          ...envelope,
          type: "assistant",
          uuid: "a1",
          message: {
            id: "m1",
            role: "assistant",
            content: [
              { type: "text", text: `Key ${aws} noted.` },
              {
                type: "tool_use",
                id: "t1",
                name: "Bash",
                input: { command: `curl -H "Authorization: token ${token}" x` },
              },
            ],
          },
        },
      ]
        .map((entry) => `${JSON.stringify(entry)}\n`)
        .join(""),
    );
    const read = await readTranscriptFrom(path, 0);
    const everything = JSON.stringify(read);
    expect(everything).not.toContain(token.slice(4, 20));
    expect(everything).not.toContain(aws.slice(4, 16));
    expect(read.messages[0]?.text).toBe("use the token [REDACTED:github-token] please");
    expect(read.messages[1]?.text).toContain("[REDACTED:aws-access-key-id]");
    expect(read.messages[1]?.tools[0]).toMatch(/^Bash: curl -H "Authorization: .*\[REDACTED:/);
    expect(read.meta.title).toBe("Rotate [REDACTED:github-token]");
    expect(read.meta.firstPrompt).toBe("use the token [REDACTED:github-token] please");
    const allowed = await readTranscriptFrom(path, 0, { allowlist: [aws] });
    expect(allowed.messages[1]?.text).toBe(`Key ${aws} noted.`);
    expect(allowed.messages[0]?.text).toBe("use the token [REDACTED:github-token] please");
    rmSync(dir, { recursive: true });
  });
});
