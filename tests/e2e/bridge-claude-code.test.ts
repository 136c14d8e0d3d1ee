// `ctx bridge synology` with the REAL Claude Code (pinned release) against the scripted Messages API mock, and a
// mock Synology Chat recording every post with its time: a 40,000-character paste becomes 3 turns of one Claude
// session; a 12,000-character answer arrives as [1/4]…[4/4], each within 3,500 characters, at least 450 ms apart,
// code fences balanced in each; /status answers; a wrong token runs nothing. Then the soft limit: a session
// whose reported usage crosses 120K is summarised and continues in a new Claude session that carries the
// summary (--append-system-prompt), so the next reply still knows the preference stated in message 1.
import { afterEach, describe, expect, it } from "vitest";
import { type BridgeProcess, startBridgeProcess } from "./harness/bridge-process.ts";
import { ensureClaudeCli } from "./harness/claude-cli.ts";
import { type MessagesRequestBody, messagesText, systemText } from "./harness/messages-api.ts";
import { type MockAnthropic, startMockAnthropic } from "./harness/mock-anthropic.ts";
import { type MockSynology, startMockSynology } from "./harness/mock-synology.ts";
import { createSandbox } from "./harness/sandbox.ts";

const cli = await ensureClaudeCli();
const claudeBin = "bin" in cli ? cli.bin : undefined;
if ("skipReason" in cli) process.stderr.write(`bridge-claude-code.test.ts skipped: ${cli.skipReason}\n`);

const TOKEN = "synology-outgoing-token";
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(
  extra: Record<string, string> = {},
): Promise<{ anthropic: MockAnthropic; chat: MockSynology; bridge: BridgeProcess }> {
  const sandbox = await createSandbox({ claudeBin, git: false });
  cleanups.push(() => sandbox.cleanup());
  const anthropic = await startMockAnthropic();
  cleanups.push(() => anthropic.close());
  const chat = await startMockSynology();
  cleanups.push(() => chat.close());
  const bridge = await startBridgeProcess(sandbox, {
    CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN,
    CTX_BRIDGE__SYNOLOGY__INCOMING_URL: chat.url,
    CTX_BRIDGE__CLAUDE__COMMAND: claudeBin ?? "claude",
    CTX_BRIDGE__CLAUDE__TIMEOUT_MS: "90000",
    ANTHROPIC_BASE_URL: anthropic.url,
    ANTHROPIC_API_KEY: "test-key",
    ENABLE_TOOL_SEARCH: "false",
    ...extra,
  });
  cleanups.push(async () => {
    bridge.child.kill("SIGTERM");
    await bridge.exited;
  });
  return { anthropic, chat, bridge };
}

const say = (text: string) => ({
  token: TOKEN,
  user_id: "42",
  username: "ann",
  channel_id: "3",
  channel_name: "dev",
  text,
});

/** The text of the request's last user message (what Claude Code got on stdin for this turn). */
function lastUserText(body: MessagesRequestBody | undefined): string {
  const user = (body?.messages ?? []).filter((message) => message.role === "user").at(-1);
  return user === undefined ? "" : messagesText({ messages: [user] });
}

function longAnswer(): string {
  const para = (i: number) => `Paragraph ${i}: ${"the bridge keeps long answers readable in chat. ".repeat(8)}`.trim();
  const paragraphs = Array.from({ length: 40 }, (_, i) => para(i));
  const code = `\`\`\`ts\n${Array.from({ length: 110 }, (_, i) => `const value${i} = compute(${i}); // line ${i}`).join("\n")}\n\`\`\``;
  return `${paragraphs.slice(0, 8).join("\n\n")}\n\n${code}\n\n${paragraphs.slice(8).join("\n\n")}`.slice(0, 12_000);
}

describe.skipIf(claudeBin === undefined)("ctx bridge synology with the real Claude Code", () => {
  it("sends a long paste as parts of one session, posts a long answer in paced parts, answers /status, ignores a wrong token", async () => {
    const { anthropic, chat, bridge } = await setup();
    const paste = Array.from({ length: 1_000 }, (_, i) => `log line ${String(i).padStart(4, "0")}: ${"x".repeat(28)}`)
      .join("\n")
      .slice(0, 40_000);
    expect(paste.length).toBe(40_000);
    anthropic.enqueue({ text: "Got part 1." }, { text: "Got part 2." }, { text: "All 3 parts read: 1,000 log lines." });
    expect((await bridge.post(say(paste))).status).toBe(200);
    const [pasteReply] = await chat.waitForPosts(1, 120_000);
    const turns = anthropic.mainRequests();
    expect(turns).toHaveLength(3);
    expect(lastUserText(turns[0]?.body)).toContain("arrives in 3 parts");
    expect(lastUserText(turns[1]?.body)).toContain("Here is more of the same message (part 2 of 3)");
    expect(lastUserText(turns[2]?.body)).toContain("Here is more of the same message (part 3 of 3)");
    // One Claude session: each later turn carries the earlier parts (--resume).
    expect(messagesText(turns[2]?.body ?? {})).toContain("log line 0000");
    expect(messagesText(turns[2]?.body ?? {})).toContain("Got part 2.");
    expect(pasteReply?.text).toBe("Got part 1.\n\nGot part 2.\n\nAll 3 parts read: 1,000 log lines.");

    const answer = longAnswer();
    anthropic.enqueue({ text: answer });
    expect((await bridge.post(say("Explain the code, at length."))).status).toBe(200);
    const posts = (await chat.waitForPosts(5, 120_000)).slice(1);
    expect(posts.map((post) => post.text.slice(0, 6))).toEqual(["[1/4] ", "[2/4] ", "[3/4] ", "[4/4] "]);
    for (const post of posts) {
      expect(post.text.length).toBeLessThanOrEqual(3_500);
      expect((post.text.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    expect(posts.some((post) => post.text.includes("```ts"))).toBe(true);
    for (let i = 1; i < posts.length; i += 1) {
      expect((posts[i]?.at ?? 0) - (posts[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(450);
    }
    // Resumed session: the answer's turn saw the paste's turns before it.
    expect(messagesText(anthropic.mainRequests()[3]?.body ?? {})).toContain("All 3 parts read");

    const requestsBefore = anthropic.requests.length;
    expect((await bridge.post({ ...say("run this"), token: "not-the-token" })).status).toBe(401);
    expect((await bridge.post(say("/status"))).status).toBe(200);
    const status = (await chat.waitForPosts(6, 60_000))[5]?.text ?? "";
    expect(status).toMatch(/^Context: [\d,]+ of 200,000 tokens/);
    expect(status).toContain("Messages: 2 (4 Claude turns");
    expect(status).toContain("Last summarised: never.");
    // Neither the wrong token nor /status reached Claude.
    expect(anthropic.requests.length).toBe(requestsBefore);
    await bridge.waitForLog(/ ann in=\d+B parts=3 out=\d+c\/1msg tokens=\d+ claude=\d+ms posted=1 time=\d+ms/);
    await bridge.waitForLog(/ ann in=\d+B parts=1 out=\d+c\/4msg .* posted=4 /);
  }, 240_000);

  it("summarises past the soft limit and continues in a new Claude session that still knows message 1", async () => {
    const { anthropic, chat, bridge } = await setup();
    const preference = "Always answer in British English and call me Captain.";
    anthropic.enqueue(
      { text: "Understood, Captain." },
      { text: "Here is the plan for the migration." },
      // The third turn reports a context past 120K tokens.
      { text: "Done with step one.", usage: { input_tokens: 2_000, cache_read_input_tokens: 119_000 } },
      (request) => {
        const system = systemText(request.body ?? {});
        return {
          text: system.includes("call me Captain") ? "Certainly, Captain: step two next." : "I do not know your name.",
        };
      },
    );
    for (const [index, text] of [preference, "Plan the database migration.", "Do step one.", "What next?"].entries()) {
      expect((await bridge.post(say(text))).status).toBe(200);
      await chat.waitForPosts(index + 1, 120_000);
    }
    const turns = anthropic.mainRequests();
    expect(turns).toHaveLength(4);
    // Turns 1-3 are one session; turn 4 starts a new one (no earlier messages) seeded with the summary.
    expect(messagesText(turns[2]?.body ?? {})).toContain("Plan the database migration.");
    expect(messagesText(turns[3]?.body ?? {})).not.toContain("Plan the database migration.");
    expect(systemText(turns[3]?.body ?? {})).toContain("<conversation-summary>");
    expect(systemText(turns[0]?.body ?? {})).not.toContain("<conversation-summary>");
    expect(chat.posts[3]?.text).toBe("Certainly, Captain: step two next.");
    await bridge.waitForLog(/summarised\(soft-limit\)/);
    expect((await bridge.post(say("/status"))).status).toBe(200);
    const status = (await chat.waitForPosts(5, 60_000))[4]?.text ?? "";
    expect(status).toMatch(/Last summarised: \d{4}-\d\d-\d\d \d\d:\d\d UTC \(1 times\)/);
  }, 240_000);

  it("measures the context of a turn with a tool call from its last API call, not the run's summed usage", async () => {
    const { anthropic, chat, bridge } = await setup({ CTX_BRIDGE__CLAUDE__ARGS: "--allowedTools,Read" });
    anthropic.enqueue(
      {
        toolUse: { name: "Read", input: { file_path: "/etc/hostname" } },
        usage: { input_tokens: 1_000, cache_read_input_tokens: 70_000 },
      },
      { text: "It is a hostname.", usage: { input_tokens: 1_200, cache_read_input_tokens: 71_000 } },
    );
    expect((await bridge.post(say("What is in /etc/hostname?"))).status).toBe(200);
    await chat.waitForPosts(1, 120_000);
    expect(chat.posts[0]?.text).toBe("It is a hostname.");
    // The run's summed usage says 143,200 (past the soft limit); the context is the last call's 72,200.
    expect((await bridge.post(say("/status"))).status).toBe(200);
    const status = (await chat.waitForPosts(2, 60_000))[1]?.text ?? "";
    expect(status).toMatch(/^Context: 72,200 of 200,000 tokens/);
  }, 240_000);
});
