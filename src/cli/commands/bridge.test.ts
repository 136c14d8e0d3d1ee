import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "../../../tests/helpers/cli-run.ts";
import { rejectedCtxError } from "../../../tests/helpers/ctx-error.ts";
import { newBridgeSession } from "../../core/bridge/session.ts";
import { BridgeStatusReportSchema } from "../../core/bridge/status.ts";
import { openJournal } from "../../store/bridge/journal-store.ts";
import { bridgeDir, sessionsDir, updateBridgeSession } from "../../store/bridge/session-store.ts";

let env: NodeJS.ProcessEnv;
let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "ctx-bridge-cli-"));
  env = { HOME: cwd, CTX_HOME: join(cwd, "ctx-home") };
});
const run = (argv: string[]) => runCliCaptured(argv, { cwd, env });

describe("ctx bridge status", () => {
  it("lists the conversations and the messages still owed, as text and --json", async () => {
    const identity = { key: "3:42", userId: "42", username: "ann", channelId: "3", channelName: "dev" };
    await updateBridgeSession(sessionsDir(env), "3:42", () => ({
      ...newBridgeSession(identity, new Date("2026-01-02T03:04:05Z")),
      messages: 12,
      contextTokens: 45_000,
    }));
    const { journal } = await openJournal(bridgeDir(env));
    await journal.append({
      t: "accept",
      message: { ...identity, id: "m1", at: "2026-01-02T03:04:05Z", postId: null, text: "hi", bytes: 2 },
    });
    await journal.close();
    const text = await run(["bridge", "status"]);
    expect(text.stdout).toContain("Bridge sessions in");
    expect(text.stdout).toContain(
      "ann (#dev): 12 messages, 45,000 tokens, last 2026-01-02 03:04 UTC, summarised never",
    );
    expect(text.stdout).toContain("Messages accepted and not yet answered: 1");
    const report = BridgeStatusReportSchema.parse(JSON.parse((await run(["bridge", "status", "--json"])).stdout));
    expect(report.sessions).toMatchObject([{ key: "3:42", messages: 12, contextTokens: 45_000 }]);
    expect(report.sessions[0]?.fileBytes).toBeGreaterThan(0);
    expect(report.pendingMessages).toBe(1);
  });

  it("names a channel conversation by its channel id when Synology sent no channel name", async () => {
    const channel = { key: "7:42", userId: "42", username: "ann", channelId: "7", channelName: null };
    const direct = { key: "dm:43", userId: "43", username: "bob", channelId: null, channelName: null };
    for (const identity of [channel, direct]) {
      await updateBridgeSession(sessionsDir(env), identity.key, () =>
        newBridgeSession(identity, new Date("2026-01-02T03:04:05Z")),
      );
    }
    const text = await run(["bridge", "status"]);
    expect(text.stdout).toContain("ann (channel 7):");
    expect(text.stdout).toContain("bob (direct):");
    const report = BridgeStatusReportSchema.parse(JSON.parse((await run(["bridge", "status", "--json"])).stdout));
    expect(report.sessions.find((row) => row.key === "7:42")).toMatchObject({ channelId: "7", channelName: null });
  });

  it("keeps a chat's user name and channel name on their line (no forged line, no escape)", async () => {
    const identity = {
      key: "9:44",
      userId: "44",
      username: "eve\nBridge sessions in /forged: 0\u001b]52;c;cHduZWQ=\u0007",
      channelId: "9",
      channelName: "ops\r\nMessages accepted and not yet answered: 0",
    };
    await updateBridgeSession(sessionsDir(env), identity.key, () =>
      newBridgeSession(identity, new Date("2026-01-02T03:04:05Z")),
    );
    const text = await run(["bridge", "status"]);
    expect(text.stdout).not.toContain("\u001b");
    expect(text.stdout).not.toContain("\u0007");
    const lines = text.stdout.split("\n");
    expect(lines.filter((line) => line.startsWith("Bridge sessions in"))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith("Messages accepted"))).toHaveLength(1);
    expect(lines.find((line) => line.includes("eve"))).toContain("0 messages");
  });

  it("prints an empty listing before the bridge ever ran", async () => {
    const report = BridgeStatusReportSchema.parse(JSON.parse((await run(["bridge", "status", "--json"])).stdout));
    expect(report).toMatchObject({ sessions: [], pendingMessages: 0, unreadable: [] });
  });

  it("shows the reply parts waiting for the chat and how long the oldest has waited", async () => {
    const { journal } = await openJournal(bridgeDir(env));
    const message = { key: "42", userId: "42", username: "ann", channelId: null, channelName: null, postId: null };
    await journal.append({
      t: "accept",
      message: { ...message, id: "m1", at: "2026-01-02T03:04:05Z", text: "hi", bytes: 2 },
    });
    await journal.append({
      t: "reply",
      id: "m1",
      parts: ["[1/3] a", "[2/3] b", "[3/3] c"],
      at: "2026-01-02T03:04:06.000Z",
    });
    await journal.append({ t: "posted", id: "m1", part: 0 });
    await journal.close();
    const text = await run(["bridge", "status"]);
    expect(text.stdout).toMatch(
      /Reply parts waiting for the chat: 2, the oldest for \d+ h \d+ min \(since 2026-01-02 03:04 UTC\)/,
    );
    const report = BridgeStatusReportSchema.parse(JSON.parse((await run(["bridge", "status", "--json"])).stdout));
    expect(report).toMatchObject({ pendingMessages: 1, pendingParts: 2, oldestPendingAt: "2026-01-02T03:04:06.000Z" });
    expect(report.oldestPendingSeconds).toBeGreaterThan(0);
  });
});

describe("ctx bridge synology", () => {
  it("rejects a bad --port and a hard limit below the soft limit", async () => {
    const withSettings = {
      ...env,
      CTX_BRIDGE__SYNOLOGY__TOKEN: "t",
      CTX_BRIDGE__SYNOLOGY__INCOMING_URL: "https://nas.example/webapi/entry.cgi?token=x",
    };
    const port = await rejectedCtxError(
      runCliCaptured(["bridge", "synology", "--port", "http"], { cwd, env: withSettings }),
    );
    expect(port.message).toContain('--port must be a port number (0-65535; 0 picks a free one), got "http"');
    const limits = await rejectedCtxError(
      runCliCaptured(["bridge", "synology"], {
        cwd,
        env: { ...withSettings, CTX_BRIDGE__HARD_LIMIT_TOKENS: "100000" },
      }),
    );
    expect(limits.message).toContain("bridge.hardLimitTokens (100000) is below bridge.softLimitTokens (120000)");
    const url = await rejectedCtxError(
      runCliCaptured(["bridge", "synology"], {
        cwd,
        env: { ...withSettings, CTX_BRIDGE__SYNOLOGY__INCOMING_URL: "nas.example/webhook" },
      }),
    );
    expect(url.message).toBe("bridge.synology.incomingUrl is not a URL");
  });
});
