// The chaos run of issue #22 in short form (the full one is `bench/run.ts bridge-chaos`): 100 messages from 10
// people (a tenth over 15,000 characters) to the built bridge while the chat fails 30% of posts at random, is down
// for 20 s (longer than the poster's old ~15 s of retries) and the bridge is SIGKILLed once and started again.
// Every accepted message must be answered exactly once, every part of every reply delivered, no part of a long
// message orphaned by a rollover.
import { describe, expect, it } from "vitest";
import { CHAOS_BRIDGE_SETTINGS, runBridgeChaos } from "./harness/bridge-chaos.ts";

describe("ctx bridge synology under chaos", () => {
  it("loses no reply and posts none twice through a 20 s chat outage, random post failures and a SIGKILL", async () => {
    const report = await runBridgeChaos({
      messages: 100,
      users: 10,
      longShare: 0.1,
      postFailureRate: 0.3,
      outageSeconds: 20,
      kills: 1,
      diskFullSeconds: 0,
      diskSize: "64m",
      thinkMs: 1_000,
      settleSeconds: 40,
      deadlineSeconds: 150,
      seed: 2_022,
      // Retries capped at 5 s (default 5 min) so the test waits seconds, not minutes, after the outage.
      bridgeEnv: { ...CHAOS_BRIDGE_SETTINGS, CTX_BRIDGE__CONCURRENCY: "10", CTX_BRIDGE__RETRY_MAX_MS: "5000" },
    });
    process.stderr.write(`bridge chaos (short form): ${JSON.stringify(report)}\n`);
    expect({
      accepted: report.accepted,
      lost: report.lost,
      answeredTwice: report.answeredTwice,
      partsMissing: report.partsMissing,
      partsDuplicated: report.partsDuplicated,
      unmatchedPosts: report.unmatchedPosts,
      // Break 2: a later part of a long message reaching a new session that holds neither the earlier parts nor
      // this message in its seed (the stub Claude counts them).
      orphanedParts: report.orphanedParts,
      // After a clean stop, the journal owes nothing.
      owedAtEnd: report.owedAtEnd,
    }).toEqual({
      accepted: 100,
      lost: 0,
      answeredTwice: 0,
      partsMissing: 0,
      partsDuplicated: 0,
      unmatchedPosts: 0,
      orphanedParts: 0,
      owedAtEnd: 0,
    });
    expect(report.answeredExactlyOnce).toBe(100);
  }, 180_000);
});
