import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeClients,
  connectClient,
  expectSchemaRejection,
  testDeps,
  textOf,
} from "../../../tests/helpers/mcp-project.ts";
import { defaultConfig } from "../../config/defaults.ts";
import type { GuardState } from "../../core/guard/state.ts";
import { stepGuard } from "../../core/guard/tiers.ts";
import { writeGuardState } from "../../store/guard/guard-store.ts";

afterEach(closeClients);

/** A project whose guard measured `series` (tokens) for `sessionId`, one tool call each, at `minute`. */
function measured(project: string, sessionId: string, series: number[], minute: number): GuardState {
  let state: GuardState | null = null;
  series.forEach((used, i) => {
    state = stepGuard(
      state,
      {
        sessionId,
        at: `2026-11-22T10:${String(minute).padStart(2, "0")}:${String(i).padStart(2, "0")}.000Z`,
        reading: { usedTokens: used, source: "usage", model: "claude-opus-4-6", at: null, compaction: null },
        windowTokens: 200_000,
        autoCompactTokens: 167_000,
      },
      defaultConfig().guard,
    ).state;
    writeGuardState(project, state);
  });
  return state as unknown as GuardState;
}

function project(): string {
  const root = join(mkdtempSync(join(tmpdir(), "ctx-health-")), "repo");
  mkdirSync(join(root, ".ctx"), { recursive: true });
  return root;
}

describe("ctx_health", () => {
  it("reports the newest measured session: tier, used, window, percent, velocity, forecast", async () => {
    const root = project();
    measured(root, "older", [50_000, 52_000], 1);
    measured(root, "newer", [100_000, 102_000, 104_000, 106_000, 108_000], 2);
    const client = await connectClient(testDeps(root));
    const result = await client.callTool({ name: "ctx_health", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      health: {
        sessionId: "newer",
        tier: "warning",
        usedTokens: 108_000,
        windowTokens: 200_000,
        percentUsed: 54,
        percentRemaining: 29.5,
        velocity: 1,
        forecastOperations: 29,
        lastCompaction: null,
      },
    });
    expect(
      (result.structuredContent as { health: { recentMeasurements: unknown[] } }).health.recentMeasurements,
    ).toHaveLength(5);
    expect(textOf(result)).toContain("context guard: warning");
    const one = await client.callTool({ name: "ctx_health", arguments: { session_id: "older", measurements: 1 } });
    expect(one.structuredContent).toMatchObject({
      health: { sessionId: "older", usedTokens: 52_000, recentMeasurements: [{ op: 2 }] },
    });
  });

  it("says nothing is measured yet as an ordinary result; an unknown session is an isError with a hint", async () => {
    const client = await connectClient(testDeps(project()));
    const none = await client.callTool({ name: "ctx_health", arguments: {} });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent).toEqual({ health: null });
    expect(textOf(none)).toContain("no measurement yet");
    const unknown = await client.callTool({ name: "ctx_health", arguments: { session_id: "nope" } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/\[NOT_FOUND\].*nope[\s\S]*hint:/);
  });

  it("rejects a measurement count out of range and a session id that is not a string", async () => {
    const client = await connectClient(testDeps(project()));
    await expectSchemaRejection(client, "ctx_health", { measurements: 11 }, "measurements");
    await expectSchemaRejection(client, "ctx_health", { session_id: 5 }, "session_id");
  });

  it("ctx://health carries the same figures as JSON", async () => {
    const root = project();
    measured(root, "s1", [140_000, 142_000], 3);
    const client = await connectClient(testDeps(root));
    const { contents } = await client.readResource({ uri: "ctx://health" });
    const first = contents[0];
    const body = JSON.parse(first !== undefined && "text" in first ? first.text : "null");
    expect(body.health).toMatchObject({ sessionId: "s1", tier: "advisory", usedTokens: 142_000, percentUsed: 71 });
  });
});
