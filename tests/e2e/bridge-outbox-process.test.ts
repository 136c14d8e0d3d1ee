// The reply outbox as an operator meets it (issue #22, break 3): the built `ctx bridge synology` with the stand-in
// chat answering 500 to a run of posts. SIGTERM while the reply waits: the bridge exits at once (0), `ctx bridge
// status` shows the waiting part, and the next start posts it, once, without running Claude again.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BridgeStatusReportSchema } from "../../src/core/bridge/status.ts";
import { startBridgeProcess } from "./harness/bridge-process.ts";
import { startMockSynology } from "./harness/mock-synology.ts";
import { createSandbox, runCtx } from "./harness/sandbox.ts";

const STUB = fileURLToPath(new URL("./harness/stub-claude.mjs", import.meta.url));
const TOKEN = "outbox-process-token";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("ctx bridge synology: replies wait for the chat across a stop", () => {
  it("break 3: SIGTERM mid-outage keeps the reply; the next start posts it once", async () => {
    const sandbox = await createSandbox({ git: false });
    cleanups.push(() => sandbox.cleanup());
    const chat = await startMockSynology();
    cleanups.push(() => chat.close());
    const counter = join(sandbox.root, "claude-calls");
    const env = {
      CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN,
      CTX_BRIDGE__SYNOLOGY__INCOMING_URL: chat.url,
      CTX_BRIDGE__SYNOLOGY__MODE: "chatbot",
      CTX_BRIDGE__CLAUDE__COMMAND: STUB,
      CTX_BRIDGE__PACE_MS: "0",
      CTX_BRIDGE__RETRY_BASE_MS: "20",
      CTX_BRIDGE__RETRY_MAX_MS: "50",
      STUB_CLAUDE_COUNTER: counter,
    };
    // The chat is down for the next 40 posts (more than the first bridge will try).
    chat.failNext(...Array.from({ length: 40 }, () => ({ status: 500, body: "" })));
    const first = await startBridgeProcess(sandbox, env);
    cleanups.push(async () => {
      first.child.kill("SIGKILL");
      await first.exited;
    });
    expect((await first.post({ token: TOKEN, user_id: "5", username: "eve", text: "hello outbox" })).status).toBe(200);
    await first.waitForLog(/(part 1\/1 waits in the outbox \(HTTP 500\)[\s\S]*){3}/);
    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.stderr()).toContain("1 reply part(s) wait for the chat; the next start posts them");
    expect(first.stderr()).not.toMatch(/lost after|LOST=/);
    expect(chat.posts).toHaveLength(0);

    const status = await runCtx(sandbox, ["bridge", "status", "--json"]);
    const report = BridgeStatusReportSchema.parse(JSON.parse(status.stdout));
    expect(report).toMatchObject({ pendingMessages: 1, pendingParts: 1 });
    expect(report.oldestPendingAt).not.toBeNull();

    const second = await startBridgeProcess(sandbox, env);
    cleanups.push(async () => {
      second.child.kill("SIGKILL");
      await second.exited;
    });
    await second.waitForLog(/bridge: s-[0-9a-f]{8} eve resumed: posting parts 1-1 posted=1 /);
    expect(chat.posts.map((post) => post.text)).toEqual(["echo 1: hello outbox"]);
    expect(readFileSync(counter, "utf8").trim().split("\n")).toHaveLength(1);
  }, 60_000);
});
