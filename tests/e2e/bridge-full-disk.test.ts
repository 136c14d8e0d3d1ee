// `ctx bridge synology` with CTX_HOME on a 2 MB tmpfs that fills up (issue #22, break 1): a message the journal
// cannot keep gets 503 (so Synology sends it again), never a 200 over a torn line; after a restart with room again,
// every message that got 200 is answered exactly once, and the 503 ones are answered once re-sent. Needs root to
// mount the tmpfs (CI runs as root); elsewhere the test is skipped with the reason printed.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type BridgeProcess, startBridgeProcess } from "./harness/bridge-process.ts";
import { startMockSynology } from "./harness/mock-synology.ts";
import { createSandbox } from "./harness/sandbox.ts";
import { fillDisk, mountSmallTmpfs, unmountSmallTmpfs } from "./harness/small-disk.ts";

const STUB = fileURLToPath(new URL("./harness/stub-claude.mjs", import.meta.url));
const TOKEN = "full-disk-token";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const send = (bridge: BridgeProcess, user: number, text: string) =>
  bridge.post({ token: TOKEN, user_id: String(user), username: `u${user}`, post_id: `p${user}`, text });

describe("ctx bridge synology on a full disk", () => {
  it("break 1: every message answered 200 is answered after a restart, every other one got 503", async (test) => {
    const sandbox = await createSandbox({ git: false });
    cleanups.push(() => sandbox.cleanup());
    const home = join(sandbox.root, "small-disk");
    mkdirSync(home);
    const refused = mountSmallTmpfs(home);
    if (refused !== null) {
      process.stderr.write(`skipping: ${refused}\n`);
      test.skip(refused);
      return;
    }
    cleanups.push(async () => unmountSmallTmpfs(home));
    const chat = await startMockSynology();
    cleanups.push(() => chat.close());
    const env = {
      CTX_HOME: home,
      CTX_BRIDGE__SYNOLOGY__TOKEN: TOKEN,
      CTX_BRIDGE__SYNOLOGY__INCOMING_URL: chat.url,
      CTX_BRIDGE__SYNOLOGY__MODE: "chatbot",
      CTX_BRIDGE__CLAUDE__COMMAND: STUB,
      CTX_BRIDGE__PACE_MS: "0",
      CTX_BRIDGE__STOP_GRACE_MS: "300",
      STUB_CLAUDE_COUNTER: join(sandbox.root, "claude-calls"),
    };
    // Claude never answers in the first run: every accepted message is still owed when it stops.
    const first = await startBridgeProcess(sandbox, { ...env, STUB_CLAUDE_MODE: "hang" });
    // SIGTERM, so the bridge ends its hanging Claude runs (their folder is on the tmpfs, which must unmount).
    cleanups.push(async () => {
      first.child.kill("SIGTERM");
      const timer = setTimeout(() => first.child.kill("SIGKILL"), 5_000);
      await first.exited;
      clearTimeout(timer);
    });
    const texts = new Map<number, string>();
    const statuses = new Map<number, number>();
    const sendNew = async (user: number, text: string) => {
      texts.set(user, text);
      statuses.set(user, (await send(first, user, text)).status);
    };
    for (let user = 100; user < 103; user += 1) await sendNew(user, `m${user} before the disk filled`);
    const filler = join(home, "filler");
    fillDisk(filler);
    // Records larger than a page: each needs a page the disk no longer has (a short write, then ENOSPC).
    for (let user = 103; user < 107; user += 1) await sendNew(user, `m${user} ${"x".repeat(5_000)}`);
    // Synology's retry of a refused message is tried again, not taken for a duplicate.
    const retry = await send(first, 103, texts.get(103) ?? "");
    expect(retry.status).toBe(503);
    // Small ones may fit in the journal's last page, or not: 200 or 503, never anything else.
    for (let user = 107; user < 110; user += 1) await sendNew(user, `m${user} small`);

    expect([...statuses.values()].every((status) => status === 200 || status === 503)).toBe(true);
    expect([100, 101, 102].map((user) => statuses.get(user))).toEqual([200, 200, 200]);
    expect([103, 104, 105, 106].map((user) => statuses.get(user))).toEqual([503, 503, 503, 503]);
    expect(first.stderr()).toMatch(/answered 503; the chat will send it again\): .*ENOSPC/);
    expect(first.stderr()).not.toContain("already accepted");
    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(chat.posts).toHaveLength(0);

    rmSync(filler);
    const acknowledged = [...statuses].filter(([, status]) => status === 200).map(([user]) => user);
    const second = await startBridgeProcess(sandbox, env);
    cleanups.push(async () => {
      second.child.kill("SIGKILL");
      await second.exited;
    });
    expect(second.stderr()).not.toContain("damaged journal line");
    expect(second.stderr()).toContain(`resuming ${acknowledged.length} message(s)`);
    await chat.waitForPosts(acknowledged.length);
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more may arrive
    const answered = (posts: typeof chat.posts) =>
      posts.map((post) => Number(/^echo \d+: m(\d+) /.exec(post.text)?.[1])).sort((a, b) => a - b);
    expect(answered(chat.posts)).toEqual(acknowledged);

    // Synology sends the refused ones again: now they are kept and answered, once each.
    const resent = [...statuses].filter(([, status]) => status === 503).map(([user]) => user);
    for (const user of resent) expect((await send(second, user, texts.get(user) ?? "")).status).toBe(200);
    await chat.waitForPosts(acknowledged.length + resent.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered(chat.posts)).toEqual([...acknowledged, ...resent].sort((a, b) => a - b));
  }, 120_000);
});
