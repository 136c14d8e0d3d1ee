// `ctx bridge synology` as a process with `summaries.provider: claude-cli`: the rolling summary runs through
// `bridge.claude.command` (a stub here) with the one-shot summary prompt, never a `claude` found on PATH; the
// extractive summary stays the default.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startBridgeProcess } from "./harness/bridge-process.ts";
import { startMockSynology } from "./harness/mock-synology.ts";
import { createSandbox } from "./harness/sandbox.ts";

const STUB = fileURLToPath(new URL("./harness/stub-claude.mjs", import.meta.url));
const TOKEN = "outgoing-secret-token";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function conversationThenNew(summaryProvider: string | null): Promise<{
  calls: string[];
  runs: string[];
  pathClaudeRan: boolean;
}> {
  const sandbox = await createSandbox({ git: false });
  cleanups.push(() => sandbox.cleanup());
  // A `claude` on PATH that only leaves a mark: the bridge must not run it.
  const marker = join(sandbox.root, "path-claude-ran");
  const pathClaude = join(sandbox.binDir, "claude");
  writeFileSync(pathClaude, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
  const chat = await startMockSynology();
  cleanups.push(() => chat.close());
  const counter = join(sandbox.root, "claude-calls");
  // bridge.claude.command: the stub behind a wrapper that notes each run's arguments and how many of the
  // bridge's own CTX_BRIDGE__ variables reached it (the bridge's child environment has none).
  const runs = join(sandbox.root, "claude-runs");
  const command = join(sandbox.root, "bridge-claude");
  writeFileSync(
    command,
    `#!/bin/sh\necho "$* bridge-vars=$(env | grep -c '^CTX_BRIDGE__')" >> '${runs}'\nexec '${STUB}' "$@"\n`,
    { mode: 0o755 },
  );
  const bridge = await startBridgeProcess(sandbox, {
    CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN,
    CTX_BRIDGE__SYNOLOGY__INCOMING_URL: chat.url,
    CTX_BRIDGE__CLAUDE__COMMAND: command,
    CTX_BRIDGE__PACE_MS: "0",
    STUB_CLAUDE_COUNTER: counter,
    ...(summaryProvider === null ? {} : { CTX_SUMMARIES__PROVIDER: summaryProvider }),
  });
  cleanups.push(async () => {
    bridge.child.kill("SIGKILL");
    await bridge.exited;
  });
  const send = async (text: string) =>
    expect((await bridge.post({ token: TOKEN, user_id: "7", username: "ann", text })).status).toBe(200);
  for (const [index, text] of ["I prefer tabs over spaces", "rename parser.ts", "now run the tests"].entries()) {
    await send(text);
    await chat.waitForPosts(index + 1);
  }
  await send("/new");
  const posts = await chat.waitForPosts(4);
  expect(posts[3]?.text).toContain("Started a fresh Claude session; the summary of this conversation");
  return {
    calls: readFileSync(counter, "utf8").trim().split("\n"),
    runs: readFileSync(runs, "utf8").trim().split("\n"),
    pathClaudeRan: existsSync(marker),
  };
}

describe("ctx bridge synology: the rolling summary", () => {
  it("with summaries.provider claude-cli runs bridge.claude.command with the one-shot summary prompt", async () => {
    const { calls, runs, pathClaudeRan } = await conversationThenNew("claude-cli");
    expect(calls.slice(0, 3)).toEqual(["I prefer tabs over spaces", "rename parser.ts", "now run the tests"]);
    expect(calls).toHaveLength(4);
    expect(calls[3]).toMatch(/^Summarise the conversation below .* in at most 200 words/);
    expect(pathClaudeRan).toBe(false);
    // The summariser's own run (no session kept, one turn), in the bridge's child environment.
    expect(runs[3]).toContain("--no-session-persistence");
    expect(runs[3]).toContain("--max-turns 1");
    expect(runs.map((run) => run.split("bridge-vars=")[1])).toEqual(["0", "0", "0", "0"]);
  });

  it("stays extractive by default: no Claude run for the summary", async () => {
    const { calls, runs, pathClaudeRan } = await conversationThenNew(null);
    expect(calls).toHaveLength(3);
    expect(runs).toHaveLength(3);
    expect(pathClaudeRan).toBe(false);
  });
});
