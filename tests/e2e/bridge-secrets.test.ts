// `ctx bridge synology` as a process with a `claude` that prints its environment as its answer (issue #22,
// "secrets stay with the bridge"): before the fix the chat got the outgoing token and the incoming URL. Claude's
// child environment is the operator's minus CTX_BRIDGE__* and anything holding the token or the URL.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startBridgeProcess } from "./harness/bridge-process.ts";
import { startMockSynology } from "./harness/mock-synology.ts";
import { createSandbox } from "./harness/sandbox.ts";

const TOKEN = "outgoing-secret-token";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A `claude -p --output-format json` that answers with every variable of its environment, one per line. */
const PRINTENV_CLAUDE = `#!/usr/bin/env node
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const lines = Object.entries(process.env).map(([name, value]) => name + "=" + value).sort().join("\\n");
  process.stdout.write(JSON.stringify({ type: "result", is_error: false, result: lines, session_id: "env-1", num_turns: 1, usage: { input_tokens: 10 } }) + "\\n");
});
`;

describe("ctx bridge synology: Claude's environment", () => {
  it("secrets stay with the bridge: a claude that prints its environment posts no token, URL or CTX_BRIDGE__ name", async () => {
    const sandbox = await createSandbox({ git: false });
    cleanups.push(() => sandbox.cleanup());
    const chat = await startMockSynology();
    cleanups.push(() => chat.close());
    const command = join(sandbox.root, "printenv-claude.cjs");
    writeFileSync(command, PRINTENV_CLAUDE);
    chmodSync(command, 0o755);
    const bridge = await startBridgeProcess(sandbox, {
      CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN,
      CTX_BRIDGE__SYNOLOGY__INCOMING_URL: chat.url,
      CTX_BRIDGE__CLAUDE__COMMAND: command,
      CTX_BRIDGE__PACE_MS: "20",
      CTX_BRIDGE__OUTPUT_CHUNK_CHARS: "100000",
      // The operator's own copies of the secrets under other names, and a variable that must stay.
      SYNO_WEBHOOK_TOKEN: TOKEN,
      CHAT_HOOK: chat.url,
      AUTH_HEADER: `Bearer ${TOKEN}`,
      OPERATOR_MARKER: "kept-for-claude",
    });
    cleanups.push(async () => {
      bridge.child.kill("SIGKILL");
      await bridge.exited;
    });
    expect((await bridge.post({ token: TOKEN, user_id: "7", username: "user7", text: "printenv" })).status).toBe(200);
    await bridge.waitForLog(/bridge: s-[0-9a-f]{8} user7 .* posted=\d+ time=/);
    const reply = chat.posts.map((post) => post.text).join("\n");
    // Claude ran with the operator's environment...
    expect(reply).toContain("OPERATOR_MARKER=kept-for-claude");
    expect(reply).toContain("PATH=");
    // ...without the bridge's own settings and secrets.
    expect(reply).not.toContain("CTX_BRIDGE__");
    expect(reply).not.toContain(TOKEN);
    expect(reply).not.toContain(chat.url);
    expect(reply).not.toContain("incoming-secret");
    expect(reply).not.toMatch(/^(SYNO_WEBHOOK_TOKEN|CHAT_HOOK|AUTH_HEADER)=/m);
  });
});
